import { env } from '@/env';
import { createOutboundFetch, type OutboundFetch } from './fetch';
import { OutboundPolicy } from './policy';

/** Everything that calls out of the process uses this: the policy, its fetch and its limits. */
export interface Outbound {
  policy: OutboundPolicy;
  fetch: OutboundFetch;
  timeoutMs: number;
  maxBytes: number;
}

export function createOutbound(opts: { allow: string[]; timeoutMs: number; maxBytes: number }): Outbound {
  const policy = OutboundPolicy.fromEntries(opts.allow);
  return {
    policy,
    fetch: createOutboundFetch({ policy, timeoutMs: opts.timeoutMs, maxBytes: opts.maxBytes }),
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
