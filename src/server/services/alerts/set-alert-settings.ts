import { sql } from 'drizzle-orm';
import { buildGraph, triggerOf } from '@/engine/graph';
import { getNodeType } from '@/engine/nodes';
import { pipelineAlerts } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { ServiceContext } from '../context';
import { findPipelineRow, findPipelineState } from '../pipelines/find';
import { DEFAULT_ALERT_WINDOW_SECONDS } from './alert-views';
import { getAlertSettings } from './get-alert-settings';

export interface SetAlertSettingsInput {
  id: string;
  /** The pipeline started when a production run fails; null turns alerting off. */
  error_pipeline_id: string | null;
  window_seconds?: number;
}

const invalid = (message: string) => new AppError('VALIDATION_FAILED', message, [{ path: 'error_pipeline_id', message }]);

/**
 * PUT /api/pipelines/{id}/alerts. The error pipeline must be another pipeline of the same organization whose latest
 * version starts with an error trigger (it runs once deployed). Not part of the definition: no new version, applies
 * to the next failure.
 */
export async function setAlertSettings(ctx: ServiceContext, input: SetAlertSettingsInput) {
  await findPipelineState(ctx, input.id);
  const target = input.error_pipeline_id;
  if (target !== null) {
    if (target === input.id) throw invalid('A pipeline cannot be its own error pipeline: its failures would start it again.');
    const errorPipeline = await findPipelineRow(ctx, target).catch(() => {
      throw invalid(`No pipeline ${target} in this organization to start on errors.`);
    });
    const trigger = triggerOf(buildGraph(errorPipeline.definition, getNodeType));
    if (trigger?.def.type !== 'error-trigger') {
      throw invalid(`Pipeline "${errorPipeline.name}" does not start with an error trigger: add one (and deploy it) to use it as an error pipeline.`);
    }
  }
  const windowSeconds = input.window_seconds ?? DEFAULT_ALERT_WINDOW_SECONDS;
  await ctx.db
    .insert(pipelineAlerts)
    .values({ pipelineId: input.id, orgId: ctx.principal.orgId, errorPipelineId: target, windowSeconds })
    .onConflictDoUpdate({
      target: pipelineAlerts.pipelineId,
      set: { errorPipelineId: target, ...(input.window_seconds !== undefined && { windowSeconds }), updatedAt: sql`now()` },
    });
  return getAlertSettings(ctx, input.id);
}
