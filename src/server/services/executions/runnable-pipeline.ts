import { and, eq } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { getNodeType } from '@/engine/nodes';
import { planOf } from '@/engine/plan';
import type { ValidationReport } from '@/engine/validate';
import type { Db } from '@/server/db/client';
import { pipelineVersions } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { PipelineDefinition } from '@/shared/pipeline';
import type { ServiceContext } from '../context';
import { findPipelineState } from '../pipelines/find';

/**
 * Definitions by pipeline version. A version is an immutable snapshot, so this cache is exact in every
 * process; and because executions of one version share the same object, the engine's plan of it
 * (validation, graph, parsed configs) is made once, not on every execution.
 */
const definitions = new LRUCache<string, PipelineDefinition>({ max: 500 });

/** The definition of a pipeline version (treat it as read-only: it is shared). */
export async function loadDefinition(db: Db, pipelineId: string, version: number): Promise<PipelineDefinition> {
  const key = `${pipelineId}:${version}`;
  const hit = definitions.get(key);
  if (hit) return hit;
  const [v] = await db
    .select({ definition: pipelineVersions.definition })
    .from(pipelineVersions)
    .where(and(eq(pipelineVersions.pipelineId, pipelineId), eq(pipelineVersions.version, version)));
  if (!v) throw new AppError('PIPELINE_NOT_FOUND', `Pipeline ${pipelineId} version ${version} no longer exists.`);
  definitions.set(key, v.definition);
  return v.definition;
}

/**
 * The version of each pipeline (by organization) this process last read as current. A guess, never trusted alone:
 * a run started on it is admitted only if the version is still current (see startIfCurrent).
 */
const lastSeenVersions = new LRUCache<string, number>({ max: 5_000 });
const seenKey = (ctx: ServiceContext, pipelineId: string) => `${ctx.principal.orgId}:${pipelineId}`;

/** The caller's pipeline as it would run now: status, current version, and that version's definition and plan. */
export async function currentPipeline(ctx: ServiceContext, pipelineId: string) {
  const state = await findPipelineState(ctx, pipelineId);
  const definition = await loadDefinition(ctx.db, state.id, state.version);
  lastSeenVersions.set(seenKey(ctx, pipelineId), state.version);
  const { report, graph } = planOf(definition, getNodeType);
  return { ...state, definition, graph, report };
}

/**
 * The caller's pipeline as this process last saw it current, without reading the database: its version, that
 * version's definition and plan. Undefined when this process has not read it, or no longer holds its definition.
 */
export function lastSeenPipeline(ctx: ServiceContext, pipelineId: string) {
  const version = lastSeenVersions.get(seenKey(ctx, pipelineId));
  const definition = version === undefined ? undefined : definitions.get(`${pipelineId}:${version}`);
  if (!definition) return undefined;
  const { report, graph } = planOf(definition, getNodeType);
  return { id: pipelineId, version: version!, definition, graph, report };
}

/** 400 PIPELINE_INVALID, the validator's findings as details, for a pipeline that cannot run. */
export function refuseInvalid(pipeline: { id: string; report: ValidationReport }): void {
  const { report } = pipeline;
  if (!report.valid) {
    throw new AppError('PIPELINE_INVALID', `Pipeline ${pipeline.id} is not valid: ${report.errors.length} problem(s).`, report.errors);
  }
}
