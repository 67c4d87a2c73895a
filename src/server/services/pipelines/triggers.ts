import { eq } from 'drizzle-orm';
import { buildGraph, triggerOf } from '@/engine/graph';
import { NodeError } from '@/engine/node-error';
import { getNodeType, NODE_TYPES } from '@/engine/nodes';
import type { TriggerHost } from '@/engine/node-type';
import type { Db } from '@/server/db/client';
import { pipelines } from '@/server/db/schema';
import { AppError, ERROR_STATUS, type ErrorCode } from '@/server/errors';
import { logger } from '@/server/logger';
import type { PipelineDefinition } from '@/shared/pipeline';
import { loadDefinition } from '../executions/runnable-pipeline';

type Row = typeof pipelines.$inferSelect;

/**
 * The definition of the version a deployed pipeline publishes (deploy publishes one version; saves made since do
 * not run), or undefined when it is not deployed. Listeners and schedules are made from it, never from the latest.
 */
export async function deployedDefinition(db: Db, pipeline: Row): Promise<PipelineDefinition | undefined> {
  if (pipeline.status !== 'deployed' || pipeline.deployedVersion === null) return undefined;
  if (pipeline.deployedVersion === pipeline.version) return pipeline.definition;
  return loadDefinition(db, pipeline.id, pipeline.deployedVersion);
}

/**
 * Makes the outside listeners of a pipeline match its deployed version: a deployed pipeline's trigger is active
 * (its schedule registered, its port open) as that version configures it; every other kind of trigger of that
 * pipeline is stopped, so a pipeline whose trigger changed on redeploy, or that was undeployed, leaves nothing
 * listening behind. Saving never calls this: a saved version's trigger takes effect when it is deployed. What
 * each trigger does is its node's `activate` / `deactivate` (a redeploy on the same port keeps the port and its
 * connections open, a new cron replaces the schedule). A trigger that cannot start throws an AppError
 * (PORT_IN_USE, LISTENER_FAILED, VALIDATION_FAILED naming the setting to fix).
 */
export async function syncTriggers(db: Db, host: TriggerHost | undefined, pipeline: Row): Promise<void> {
  if (!host) return;
  const target = { pipelineId: pipeline.id, orgId: pipeline.orgId };
  const definition = await deployedDefinition(db, pipeline);
  const trigger = definition ? triggerOf(buildGraph(definition, getNodeType)) : undefined;
  const active = trigger?.type && !trigger.configError ? trigger.type : undefined;
  for (const type of NODE_TYPES) {
    if (type.deactivate && type !== active) await type.deactivate(host, target);
  }
  if (!active?.activate) return;
  try {
    await active.activate(host, target, trigger!.config);
  } catch (e) {
    throw activationError(e, pipeline.id);
  }
}

/**
 * Why a trigger did not start (its port taken, no port set), as an AppError of this module's copy. The
 * process's trigger host may come from another bundle (Next builds the instrumentation that makes the
 * runtime apart from the routes), so its errors are recognized by name, not by class.
 */
function activationError(e: unknown, pipelineId: string): unknown {
  const err = e as { name?: string; code?: string; message?: string };
  if (e instanceof AppError) return e;
  if (err?.name === 'AppError' && typeof err.code === 'string' && err.code in ERROR_STATUS) return new AppError(err.code as ErrorCode, err.message ?? '');
  if (e instanceof NodeError || err?.name === 'NodeError')
    return new AppError('VALIDATION_FAILED', `Pipeline ${pipelineId} cannot be deployed: ${err.message}`);
  return e;
}

/**
 * At a process's start: the triggers of deployed pipelines that listen inside the process (MLLP ports)
 * open again, as their deployed versions configure them. Schedules live in the queue and need nothing. A
 * listener that cannot open (its port taken, e.g. by another web process) is logged, not fatal.
 */
export async function resumeListeners(db: Db, host: TriggerHost): Promise<void> {
  const rows = await db.select().from(pipelines).where(eq(pipelines.status, 'deployed'));
  for (const row of rows) {
    try {
      const trigger = await inboundTrigger(db, row);
      if (trigger) await openListener(host, row, trigger);
    } catch (e) {
      logger.warn(`the listener of deployed pipeline ${row.id} did not start: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

/**
 * Another server process opened or closed a pipeline's inbound listener (deploy, undeploy, a redeploy with another
 * port): this one follows, from the pipeline's deployed version as stored — listening while it is deployed with an
 * inbound trigger, closed otherwise. `host` must be this process's own listeners, not a host that announces again.
 */
export async function followListener(db: Db, host: TriggerHost, pipelineId: string): Promise<void> {
  const [row] = await db.select().from(pipelines).where(eq(pipelines.id, pipelineId));
  const trigger = row && (await inboundTrigger(db, row));
  if (row && trigger) await openListener(host, row, trigger);
  else await host.unlisten({ pipelineId, orgId: row?.orgId ?? '' });
}

/** The deployed version's trigger, when it listens inside the server process (MLLP). */
async function inboundTrigger(db: Db, row: Row) {
  const definition = await deployedDefinition(db, row);
  if (!definition) return undefined;
  const trigger = triggerOf(buildGraph(definition, getNodeType));
  if (!trigger?.type?.activate || trigger.configError || !trigger.type.trigger?.events.includes('mllp')) return undefined;
  return trigger;
}

async function openListener(host: TriggerHost, row: Row, trigger: NonNullable<Awaited<ReturnType<typeof inboundTrigger>>>): Promise<void> {
  await trigger.type!.activate!(host, { pipelineId: row.id, orgId: row.orgId }, trigger.config);
}
