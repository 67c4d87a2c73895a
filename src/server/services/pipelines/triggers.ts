import { eq } from 'drizzle-orm';
import { buildGraph, triggerOf } from '@/engine/graph';
import { NodeError } from '@/engine/node-error';
import { getNodeType, NODE_TYPES } from '@/engine/nodes';
import type { TriggerHost } from '@/engine/node-type';
import type { Db } from '@/server/db/client';
import { pipelines } from '@/server/db/schema';
import { AppError, ERROR_STATUS, type ErrorCode } from '@/server/errors';
import { logger } from '@/server/logger';

type Row = typeof pipelines.$inferSelect;

/**
 * Makes the outside listeners of a pipeline match its state: a deployed pipeline's trigger is active
 * (its schedule registered, its port open); every other kind of trigger of that pipeline is stopped, so a
 * pipeline whose trigger changed, or that was undeployed, leaves nothing listening behind. What each
 * trigger does is its node's `activate` / `deactivate`. A trigger that cannot start throws an AppError
 * (PORT_IN_USE, LISTENER_FAILED, VALIDATION_FAILED naming the setting to fix).
 */
export async function syncTriggers(host: TriggerHost | undefined, pipeline: Row): Promise<void> {
  if (!host) return;
  const target = { pipelineId: pipeline.id, orgId: pipeline.orgId };
  const trigger = pipeline.status === 'deployed' ? triggerOf(buildGraph(pipeline.definition, getNodeType)) : undefined;
  const active = trigger?.type && !trigger.configError ? trigger.type : undefined;
  for (const type of NODE_TYPES) {
    if (type.deactivate && type !== active) await type.deactivate(host, target);
  }
  if (!active?.activate) return;
  try {
    await active.activate(host, target, trigger!.config as never);
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
  if (e instanceof NodeError || err?.name === 'NodeError') return new AppError('VALIDATION_FAILED', `Pipeline ${pipelineId} cannot be deployed: ${err.message}`);
  return e;
}

/**
 * At a process's start: the triggers of deployed pipelines that listen inside the process (MLLP ports)
 * open again. Schedules live in the queue and need nothing. A listener that cannot open (its port taken,
 * e.g. by another web process) is logged, not fatal.
 */
export async function resumeListeners(db: Db, host: TriggerHost): Promise<void> {
  const rows = await db.select().from(pipelines).where(eq(pipelines.status, 'deployed'));
  for (const row of rows) {
    if (!inboundTrigger(row)) continue;
    try {
      await openListener(host, row);
    } catch (e) {
      logger.warn(`the listener of deployed pipeline ${row.id} did not start: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

/**
 * Another server process opened or closed a pipeline's inbound listener (deploy, undeploy, a changed port):
 * this one follows, from the pipeline as stored — listening while it is deployed with an inbound trigger,
 * closed otherwise. `host` must be this process's own listeners, not a host that announces again.
 */
export async function followListener(db: Db, host: TriggerHost, pipelineId: string): Promise<void> {
  const [row] = await db.select().from(pipelines).where(eq(pipelines.id, pipelineId));
  if (row && inboundTrigger(row)) await openListener(host, row);
  else await host.unlisten({ pipelineId, orgId: row?.orgId ?? '' });
}

/** The deployed pipeline's trigger, when it listens inside the server process (MLLP). */
function inboundTrigger(row: Row) {
  if (row.status !== 'deployed') return undefined;
  const trigger = triggerOf(buildGraph(row.definition, getNodeType));
  if (!trigger?.type?.activate || trigger.configError || !trigger.type.trigger?.events.includes('mllp')) return undefined;
  return trigger;
}

async function openListener(host: TriggerHost, row: Row): Promise<void> {
  const trigger = inboundTrigger(row)!;
  await trigger.type!.activate!(host, { pipelineId: row.id, orgId: row.orgId }, trigger.config as never);
}
