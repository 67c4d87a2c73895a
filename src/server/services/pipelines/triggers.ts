import { buildGraph, triggerOf } from '@/engine/graph';
import { getNodeType, NODE_TYPES } from '@/engine/nodes';
import type { TriggerHost } from '@/engine/node-type';
import type { pipelines } from '@/server/db/schema';

type Row = typeof pipelines.$inferSelect;

/**
 * Makes the outside listeners of a pipeline match its state: a deployed pipeline's trigger is active
 * (its schedule registered, its port open); every other kind of trigger of that pipeline is stopped, so a
 * pipeline whose trigger changed, or that was undeployed, leaves nothing listening behind. What each
 * trigger does is its node's `activate` / `deactivate`.
 */
export async function syncTriggers(host: TriggerHost | undefined, pipeline: Row): Promise<void> {
  if (!host) return;
  const target = { pipelineId: pipeline.id, orgId: pipeline.orgId };
  const trigger = pipeline.status === 'deployed' ? triggerOf(buildGraph(pipeline.definition, getNodeType)) : undefined;
  const active = trigger?.type && !trigger.configError ? trigger.type : undefined;
  for (const type of NODE_TYPES) {
    if (type.deactivate && type !== active) await type.deactivate(host, target);
  }
  if (active?.activate) await active.activate(host, target, trigger!.config as never);
}
