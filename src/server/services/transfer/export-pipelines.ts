import { and, eq, inArray } from 'drizzle-orm';
import { connectors, pipelines } from '@/server/db/schema';
import { isUuid, type ServiceContext } from '../context';
import { notFound } from '../pipelines/find';
import { connectorRefs, FORMAT, FORMAT_VERSION, renameConnectors, uniqueNeeds, type ExportDocument } from './format';

/**
 * Pipelines as one portable document (format `clinflow-pipelines`, version FORMAT_VERSION): each one's latest saved
 * definition (notes included), description, version and own data settings; the connectors its nodes use by name and
 * type only — a node's reference by id becomes the connector's name, so the file names nothing of this organization's
 * and holds no setting or credential. In the order asked; an id that is not one of the organization's is 404.
 */
/** The organization's connectors, by id, name and type (nothing else of them). */
export function orgConnectors(ctx: ServiceContext) {
  return ctx.db.select({ id: connectors.id, name: connectors.name, type: connectors.type }).from(connectors).where(eq(connectors.orgId, ctx.principal.orgId));
}

export async function exportPipelines(ctx: ServiceContext, ids: string[]): Promise<ExportDocument> {
  for (const id of ids) if (!isUuid(id)) throw notFound(id);
  const rows = await ctx.db
    .select()
    .from(pipelines)
    .where(and(eq(pipelines.orgId, ctx.principal.orgId), inArray(pipelines.id, ids)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = ids.find((id) => !byId.has(id));
  if (missing) throw notFound(missing);
  const own = await orgConnectors(ctx);
  const nameOf = (ref: string, type: string) => own.find((c) => c.type === type && (c.id === ref || c.name === ref))?.name ?? ref;
  return {
    format: FORMAT,
    format_version: FORMAT_VERSION,
    exported_at: new Date().toISOString(),
    pipelines: [...new Set(ids)].map((id) => {
      const row = byId.get(id)!;
      const definition = renameConnectors(row.definition, nameOf);
      return {
        name: row.name,
        description: row.description,
        version: row.version,
        definition,
        data_settings: row.dataSettings,
        connectors: uniqueNeeds(connectorRefs(definition).map((r) => ({ name: r.ref, type: r.type }))),
      };
    }),
  };
}
