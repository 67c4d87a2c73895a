import { env } from '@/env';
import type { HttpExchange } from '@/shared/http-exchange';
import { createOutboundFetch, type OutboundFetch } from './fetch';
import { OutboundPolicy } from './policy';
import { createOutboundExchange } from './request';
import { Transport } from './transport';

/** Everything that calls out of the process uses this: the policy, its fetch, its plain exchange and their limits. */
export interface Outbound {
  policy: OutboundPolicy;
  fetch: OutboundFetch;
  /** The same calls as `fetch`, on the same connections, without web Request/Response objects (see request.ts). */
  request: HttpExchange;
  timeoutMs: number;
  maxBytes: number;
}

export function createOutbound(opts: { allow: string[]; timeoutMs: number; maxBytes: number }): Outbound {
  const policy = OutboundPolicy.fromEntries(opts.allow);
  const transport = new Transport({ policy, timeoutMs: opts.timeoutMs, maxBytes: opts.maxBytes });
  return {
    policy,
    fetch: createOutboundFetch(transport),
    request: createOutboundExchange(transport),
    timeoutMs: opts.timeoutMs,
    maxBytes: opts.maxBytes,
  };
}

let processOutbound: Outbound | undefined;

/** The process's outbound policy and fetch, from OUTBOUND_ALLOW, OUTBOUND_TIMEOUT_MS and OUTBOUND_MAX_BYTES. */
export function outbound(): Outbound {
  processOutbound ??= createOutbound({ allow: env.OUTBOUND_ALLOW, timeoutMs: env.OUTBOUND_TIMEOUT_MS, maxBytes: env.OUTBOUND_MAX_BYTES });
  return processOutbound;
}

/** The process's outbound fetch (what nodes get as `services.fetch`). */
export const outboundFetch: OutboundFetch = (input, init) => outbound().fetch(input, init);

/** The process's plain outbound exchange (what nodes get as `services.request`). */
export const outboundRequest: HttpExchange = (request) => outbound().request(request);
