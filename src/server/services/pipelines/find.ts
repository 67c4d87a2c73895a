import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { pipelines } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { isUuid, type ServiceContext } from '../context';

export function notFound(id: string): AppError {
  return new AppError('PIPELINE_NOT_FOUND', `Pipeline ${id} was not found.`);
}

/** Condition matching pipeline `id` of the caller's organization (another organization's is "not found"). */
export function ownPipeline(ctx: ServiceContext, id: string) {
  if (!isUuid(id)) throw notFound(id);
  return and(eq(pipelines.id, id), eq(pipelines.orgId, ctx.principal.orgId));
}

function prepareFind(db: Db) {
  return db
    .select()
    .from(pipelines)
    .where(and(eq(pipelines.id, sql.placeholder('id')), eq(pipelines.orgId, sql.placeholder('orgId'))))
    .limit(1)
    .prepare('find_pipeline');
}

/** The hottest read of the API, prepared once per database handle (drizzle then skips building SQL). */
const finders = new WeakMap<Db, ReturnType<typeof prepareFind>>();

export async function findPipelineRow(ctx: ServiceContext, id: string) {
  if (!isUuid(id)) throw notFound(id);
  let find = finders.get(ctx.db);
  if (!find) finders.set(ctx.db, (find = prepareFind(ctx.db)));
  const [row] = await find.execute({ id, orgId: ctx.principal.orgId });
  if (!row) throw notFound(id);
  return row;
}
