import { and, count, desc, eq } from 'drizzle-orm';
import { pipelineVersions, type pipelines } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { Db } from '@/server/db/client';
import type { ServiceContext } from '../context';
import { findPipelineRow } from './find';
import { toVersion } from './pipeline-views';

/** Who made a change, as recorded on version snapshots. */
export function actor(ctx: ServiceContext): string {
  const p = ctx.principal;
  return p.kind === 'api-key' ? `api-key:${p.keyId}` : `user:${p.userId}`;
}

/** The immutable snapshot of a pipeline's new version, written in the transaction that made the version. */
export async function saveSnapshot(tx: Db, ctx: ServiceContext, row: typeof pipelines.$inferSelect): Promise<void> {
  await tx.insert(pipelineVersions).values({
    pipelineId: row.id,
    version: row.version,
    name: row.name,
    description: row.description,
    definition: row.definition,
    createdBy: actor(ctx),
  });
}

export async function listVersions(ctx: ServiceContext, input: { id: string; limit: number; offset: number }) {
  const pipeline = await findPipelineRow(ctx, input.id);
  const mine = eq(pipelineVersions.pipelineId, pipeline.id);
  const [rows, totals] = await Promise.all([
    ctx.db
      .select({
        version: pipelineVersions.version,
        name: pipelineVersions.name,
        description: pipelineVersions.description,
        createdBy: pipelineVersions.createdBy,
        createdAt: pipelineVersions.createdAt,
      })
      .from(pipelineVersions)
      .where(mine)
      .orderBy(desc(pipelineVersions.version))
      .limit(input.limit)
      .offset(input.offset),
    ctx.db.select({ n: count() }).from(pipelineVersions).where(mine),
  ]);
  return {
    versions: rows.map((r) => ({
      version: r.version,
      name: r.name,
      description: r.description,
      created_by: r.createdBy,
      created_at: r.createdAt.toISOString(),
    })),
    total_count: totals[0]?.n ?? 0,
  };
}

export async function getVersion(ctx: ServiceContext, input: { id: string; version: number }) {
  const pipeline = await findPipelineRow(ctx, input.id);
  const [row] = await ctx.db
    .select()
    .from(pipelineVersions)
    .where(and(eq(pipelineVersions.pipelineId, pipeline.id), eq(pipelineVersions.version, input.version)))
    .limit(1);
  if (!row) {
    throw new AppError('PIPELINE_VERSION_NOT_FOUND', `Pipeline ${input.id} has no version ${input.version}.`);
  }
  return toVersion(row);
}
