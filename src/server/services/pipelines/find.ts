import { and, eq, sql } from 'drizzle-orm';
import { preparedPerDb } from '@/server/db/prepared';
import { pipelines } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { DataSettingsOverride } from '@/shared/data-settings';
import { isUuid, type ServiceContext } from '../context';

export function notFound(id: string): AppError {
  return new AppError('PIPELINE_NOT_FOUND', `Pipeline ${id} was not found.`);
}

/** Condition matching pipeline `id` of the caller's organization (another organization's is "not found"). */
export function ownPipeline(ctx: ServiceContext, id: string) {
  if (!isUuid(id)) throw notFound(id);
  return and(eq(pipelines.id, id), eq(pipelines.orgId, ctx.principal.orgId));
}

const own = and(eq(pipelines.id, sql.placeholder('id')), eq(pipelines.orgId, sql.placeholder('orgId')));

/** The hottest reads of the API, prepared once per database handle. */
const findRow = preparedPerDb((db) => db.select().from(pipelines).where(own).limit(1).prepare('find_pipeline'));
/**
 * Who made the first and the current version of the selected pipeline (null for changes made before
 * authors were kept). Written out qualified: drizzle leaves columns of a one-table select unqualified,
 * and inside the subquery those would name the version table's own columns.
 */
const createdBy = sql<string | null>`(select v.created_by from pipeline_versions v where v.pipeline_id = "pipelines"."id" and v.version = 1)`;
const updatedBy = sql<
  string | null
>`(select v.created_by from pipeline_versions v where v.pipeline_id = "pipelines"."id" and v.version = "pipelines"."version")`;
/** Its organization's data settings (the defaults its own override). */
const orgSettings = sql<DataSettingsOverride | null>`(select o.data_settings from organizations o where o.id = "pipelines"."org_id")`;
const findWithAuthors = preparedPerDb((db) =>
  db.select({ row: pipelines, createdBy, updatedBy, orgSettings }).from(pipelines).where(own).limit(1).prepare('find_pipeline_with_authors'),
);
const findState = preparedPerDb((db) =>
  db
    .select({ id: pipelines.id, status: pipelines.status, version: pipelines.version, deployedVersion: pipelines.deployedVersion })
    .from(pipelines)
    .where(own)
    .limit(1)
    .prepare('find_pipeline_state'),
);

/** The caller's pipeline `id`, whole. */
export async function findPipelineRow(ctx: ServiceContext, id: string) {
  if (!isUuid(id)) throw notFound(id);
  const [row] = await findRow(ctx.db).execute({ id, orgId: ctx.principal.orgId });
  if (!row) throw notFound(id);
  return row;
}

/** The caller's pipeline `id` without its definition: what starting an execution needs to read. */
export async function findPipelineState(ctx: ServiceContext, id: string) {
  if (!isUuid(id)) throw notFound(id);
  const [row] = await findState(ctx.db).execute({ id, orgId: ctx.principal.orgId });
  if (!row) throw notFound(id);
  return row;
}

/** The caller's pipeline `id`, whole, with who created it, who made its current version and its organization's data settings (one statement). */
export async function findPipelineWithAuthors(ctx: ServiceContext, id: string) {
  if (!isUuid(id)) throw notFound(id);
  const [found] = await findWithAuthors(ctx.db).execute({ id, orgId: ctx.principal.orgId });
  if (!found) throw notFound(id);
  return found;
}
