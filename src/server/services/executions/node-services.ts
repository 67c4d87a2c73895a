import { NodeError } from '@/engine/node-error';
import type { NodeServices, TcpConnectOptions } from '@/engine/node-type';
import { getLanguageModel } from '@/server/ai/models';
import type { Db } from '@/server/db/client';
import { AppError } from '@/server/errors';
import { connectChecked } from '@/server/outbound/connect';
import { OutboundError } from '@/server/outbound/errors';
import { outbound, outboundFetch, outboundRequest } from '@/server/outbound/outbound';
import { connectorHandle } from '@/server/services/connectors/handle';
import { orgKey } from '@/server/services/orgs/org-keys';
import { acquireOrgSlot } from './org-slots';

/**
 * What a node may call that lives above executions: an agent's turn (the agent node) and the record of a language
 * model call (the agents' usage). Handed in by the composition root (services/compose.ts): executions import no agents.
 */
export type AgentServices = Pick<NodeServices, 'agent' | 'modelCall'>;

/**
 * What the host lends a running node (DESIGN.md §4: everything outside the process comes in through
 * here). Built for full runs, retries and step sessions alike by the composition root (ServiceHost.nodeServices),
 * which adds the agents' part; connectors, secrets and language models join it here. `fetch` is the outbound one:
 * internal addresses are refused unless OUTBOUND_ALLOW allows them (checked after DNS and after every redirect), with
 * a time limit and a size cap on every call. `orgKey` gives the running pipeline's organization its key for a
 * purpose; `connector` one of its connectors, credentials decrypted (kept for a second: connectors/handle.ts).
 */
export function nodeServices(db: Db, orgId: string, agents: AgentServices): NodeServices {
  return {
    tenant: orgId,
    fetch: outboundFetch,
    request: outboundRequest,
    orgKey: (purpose) => orgKey(db, orgId, purpose),
    connector: (ref, type) => connectorHandle(db, orgId, ref, type),
    connect: outboundConnect,
    languageModel,
    agent: agents.agent,
    slot: (name, limit, options) => acquireOrgSlot(db, orgId, name, limit, options),
    modelCall: agents.modelCall,
  };
}

/** A language model from env (src/server/ai); a refusal becomes the node's MODEL_UNAVAILABLE error. */
export function languageModel(id: string) {
  try {
    return getLanguageModel(id);
  } catch (e) {
    if (e instanceof AppError) throw new NodeError('MODEL_UNAVAILABLE', e.message);
    throw e;
  }
}

/** A TCP connection under the process's outbound policy; its refusals and failures as NodeErrors. */
async function outboundConnect(o: TcpConnectOptions) {
  const { policy, timeoutMs } = outbound();
  try {
    const tls = o.tls ? (o.tls === true ? {} : { ca: o.tls.ca }) : false;
    const socket = await connectChecked({ host: o.host, port: o.port, policy, timeoutMs: o.timeoutMs ?? timeoutMs, tls });
    return Object.assign(socket, { host: o.host }); // postgres.js reads `host` for TLS SNI
  } catch (e) {
    if (e instanceof OutboundError) throw new NodeError(e.code, e.message);
    throw e;
  }
}
