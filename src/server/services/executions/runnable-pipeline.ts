import { and, eq } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { triggerInputs } from '@/engine/graph';
import type { TriggerEvent } from '@/engine/node-descriptor';
import { getNodeType } from '@/engine/nodes';
import { planOf } from '@/engine/plan';
import type { ValidationReport } from '@/engine/validate';
import type { Db } from '@/server/db/client';
import { pipelines, pipelineVersions } from '@/server/db/schema';
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
 * Which version of a pipeline a run uses. Deploy publishes one version: production runs (the API, webhooks,
 * schedules, listeners) use the deployed version until the next deploy, so a save changes nothing that runs;
 * test runs, step sessions and the editor use the latest saved version.
 */
export type RunVersion = 'deployed' | 'latest';

/**
 * The version of each pipeline (by organization, and by which version a run uses) this process last read as
 * current. A guess, never trusted alone: a run started on it is admitted only if the version is still the one
 * the run would use (see startIfCurrent).
 */
const lastSeenVersions = new LRUCache<string, number>({ max: 5_000 });
const seenKey = (ctx: ServiceContext, pipelineId: string, which: RunVersion) => `${ctx.principal.orgId}:${pipelineId}:${which}`;

/**
 * The caller's pipeline as a run would use it now: its status, the version the run uses (`which`), and that
 * version's definition and plan. A pipeline that is not deployed has no deployed version: its latest stands in,
 * for the checks that refuse the run (not deployed, no such trigger) to read.
 */
export async function currentPipeline(ctx: ServiceContext, pipelineId: string, which: RunVersion) {
  const { deployedVersion, ...state } = await findPipelineState(ctx, pipelineId);
  const version = which === 'deployed' && state.status === 'deployed' && deployedVersion !== null ? deployedVersion : state.version;
  const definition = await loadDefinition(ctx.db, state.id, version);
  lastSeenVersions.set(seenKey(ctx, pipelineId, which), version);
  const { report, graph } = planOf(definition, getNodeType);
  return { ...state, version, latestVersion: state.version, definition, graph, report };
}

/**
 * The caller's pipeline as this process last saw it, without reading the database: the version a run uses
 * (`which`), that version's definition and plan. Undefined when this process has not read it, or no longer
 * holds its definition.
 */
export function lastSeenPipeline(ctx: ServiceContext, pipelineId: string, which: RunVersion) {
  const version = lastSeenVersions.get(seenKey(ctx, pipelineId, which));
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

/**
 * What a production event starts in a pipeline (a schedule's tick, a failed run for an error pipeline): its deployed
 * version — null when it is not deployed (or not in the organization) — and the inputs its deployed trigger makes of
 * the event — null when that trigger does not take such events.
 */
export async function deployedInputs(
  db: Db,
  orgId: string,
  pipelineId: string,
  event: TriggerEvent,
): Promise<{ version: number | null; inputs: Record<string, unknown> | null }> {
  const [pipeline] = await db
    .select({ status: pipelines.status, deployedVersion: pipelines.deployedVersion })
    .from(pipelines)
    .where(and(eq(pipelines.id, pipelineId), eq(pipelines.orgId, orgId)));
  const version = pipeline?.status === 'deployed' ? pipeline.deployedVersion : null;
  if (version === null) return { version, inputs: null };
  return { version, inputs: triggerInputs(planOf(await loadDefinition(db, pipelineId, version), getNodeType).graph, event) };
}
