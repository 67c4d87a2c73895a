import type { NodeServices } from '@/engine/node-type';
import type { Db } from '@/server/db/client';
import { outboundFetch } from '@/server/net/outbound';
import { orgKey } from '@/server/services/orgs/org-keys';

/**
 * What the host lends a running node (DESIGN.md §4: everything outside the process comes in through
 * here). The one place it is built, for full runs, retries and step sessions alike; connectors,
 * secrets and language models join it here. `fetch` is the outbound one: internal addresses are refused
 * unless OUTBOUND_ALLOW allows them (checked after DNS and after every redirect), with a time limit and a
 * size cap on every call. `orgKey` gives the running pipeline's organization its key for a purpose.
 */
export function nodeServices(db: Db, orgId: string): NodeServices {
  return { tenant: orgId, fetch: outboundFetch, orgKey: (purpose) => orgKey(db, orgId, purpose) };
}
