import { and, eq, or } from 'drizzle-orm';
import { NodeError } from '@/engine/node-error';
import type { ConnectorHandle, ConnectorType } from '@/engine/node-type';
import type { Db } from '@/server/db/client';
import { connectors } from '@/server/db/schema';
import { isUuid } from '@/shared/ids';
import { openSecrets } from '@/server/secrets';

/**
 * How long a running node may be handed a connector as it was read, should it change in another process. A change
 * made in this process is seen at once (forgetConnectors); one made in another process within this bound.
 */
export const CONNECTOR_CACHE_TTL_MS = 1000;
const MAX_ENTRIES = 1000;

interface Entry {
  orgId: string;
  handle: Promise<ConnectorHandle>;
  until: number;
}

// per database: tests open several in one process
const caches = new WeakMap<Db, Map<string, Entry>>();

/**
 * A connector of `orgId` for a running node, by id or name, with its credentials decrypted (NodeServices.connector).
 * Never another organization's: the lookup is scoped to the running pipeline's organization.
 *
 * A feed runs the same node thousands of times a minute: the handle is kept for CONNECTOR_CACHE_TTL_MS, so that a
 * message costs no statement and no decryption for it. Refusals (not found, wrong type) are not kept. The handle is
 * frozen: every run of the second shares it.
 */
export function connectorHandle(db: Db, orgId: string, ref: string, type: ConnectorType): Promise<ConnectorHandle> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const key = `${orgId}\u0000${type}\u0000${ref}`;
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && hit.until > now) return hit.handle;
  if (cache.size >= MAX_ENTRIES) cache.clear();
  const handle = readConnectorHandle(db, orgId, ref, type);
  const entry = { orgId, handle, until: now + CONNECTOR_CACHE_TTL_MS };
  cache.set(key, entry);
  const held = cache;
  handle.catch(() => {
    if (held.get(key) === entry) held.delete(key);
  });
  return handle;
}

/** Forgets the organization's kept connector handles: after a connector of it was changed or deleted in this process. */
export function forgetConnectors(db: Db, orgId: string): void {
  const cache = caches.get(db);
  if (!cache) return;
  for (const [key, entry] of cache) if (entry.orgId === orgId) cache.delete(key);
}

/** The connector as stored now, not kept (a "test connection" reads what was just saved). */
export async function readConnectorHandle(db: Db, orgId: string, ref: string, type: ConnectorType): Promise<ConnectorHandle> {
  const match = isUuid(ref) ? or(eq(connectors.id, ref), eq(connectors.name, ref)) : eq(connectors.name, ref);
  const [row] = await db
    .select()
    .from(connectors)
    .where(and(eq(connectors.orgId, orgId), match))
    .limit(1);
  if (!row) throw new NodeError('CONNECTOR_NOT_FOUND', `No connector "${ref}" in this organization: create it in Settings → Connectors, or pick another.`);
  if (row.type !== type) throw new NodeError('CONNECTOR_TYPE_MISMATCH', `Connector "${row.name}" is a ${row.type} connector; this node needs a ${type} one.`);
  return deepFreeze({
    id: row.id,
    name: row.name,
    type: row.type,
    endpoint: row.endpoint,
    config: row.config,
    credentials: openSecrets(row.orgId, row.id, row.secrets),
    updatedAt: row.updatedAt.toISOString(),
  });
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
