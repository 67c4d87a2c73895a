import { and, eq, or } from 'drizzle-orm';
import { NodeError } from '@/engine/node-error';
import type { ConnectorHandle, ConnectorType } from '@/engine/node-type';
import type { Db } from '@/server/db/client';
import { connectors } from '@/server/db/schema';
import { isUuid } from '@/shared/ids';
import { openSecrets } from '@/server/secrets';

/**
 * A connector of `orgId` for a running node, by id or name, with its credentials decrypted (NodeServices.connector).
 * Never another organization's: the lookup is scoped to the running pipeline's organization.
 */
export async function connectorHandle(db: Db, orgId: string, ref: string, type: ConnectorType): Promise<ConnectorHandle> {
  const match = isUuid(ref) ? or(eq(connectors.id, ref), eq(connectors.name, ref)) : eq(connectors.name, ref);
  const [row] = await db
    .select()
    .from(connectors)
    .where(and(eq(connectors.orgId, orgId), match))
    .limit(1);
  if (!row) throw new NodeError('CONNECTOR_NOT_FOUND', `No connector "${ref}" in this organization: create it in Settings → Connectors, or pick another.`);
  if (row.type !== type) throw new NodeError('CONNECTOR_TYPE_MISMATCH', `Connector "${row.name}" is a ${row.type} connector; this node needs a ${type} one.`);
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    endpoint: row.endpoint,
    config: row.config,
    credentials: openSecrets(row.orgId, row.id, row.secrets),
    updatedAt: row.updatedAt.toISOString(),
  };
}
