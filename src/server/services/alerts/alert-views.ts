import { and, desc, eq, sql } from 'drizzle-orm';
import { alertWindows, pipelineAlerts, pipelines } from '@/server/db/schema';
import type { ServiceContext } from '../context';

/** The alert window when a pipeline sets none: 15 minutes. */
export const DEFAULT_ALERT_WINDOW_SECONDS = 900;

/**
 * A pipeline's alert settings as the API shows them: its error pipeline (id and name), its window, and per error code
 * the last alert sent and the failures held back since. The caller has checked the pipeline is its organization's.
 */
export async function alertSettingsView(ctx: ServiceContext, pipelineId: string) {
  const errorPipeline = sql<string | null>`(select p.name from pipelines p where p.id = ${pipelineAlerts.errorPipelineId})`;
  const [settings, windows] = await Promise.all([
    ctx.db
      .select({ errorPipelineId: pipelineAlerts.errorPipelineId, name: errorPipeline, windowSeconds: pipelineAlerts.windowSeconds })
      .from(pipelineAlerts)
      .where(and(eq(pipelineAlerts.pipelineId, pipelineId), eq(pipelineAlerts.orgId, ctx.principal.orgId))),
    ctx.db
      .select()
      .from(alertWindows)
      .where(and(eq(alertWindows.pipelineId, pipelineId), eq(alertWindows.orgId, ctx.principal.orgId)))
      .orderBy(desc(alertWindows.lastFailedAt))
      .limit(50),
  ]);
  const s = settings[0];
  return {
    pipeline_id: pipelineId,
    error_pipeline_id: s?.errorPipelineId ?? null,
    error_pipeline_name: s?.name ?? null,
    window_seconds: s?.windowSeconds ?? DEFAULT_ALERT_WINDOW_SECONDS,
    windows: windows.map((w) => ({
      error_code: w.errorCode,
      last_alert_at: w.sentAt.toISOString(),
      held_back: w.heldBack,
      last_failed_at: w.lastFailedAt.toISOString(),
    })),
  };
}

/** Pipelines of the organization that name `pipelineId` as their error pipeline (its settings tab lists them). */
export async function alertedBy(ctx: ServiceContext, pipelineId: string) {
  return ctx.db
    .select({ id: pipelines.id, name: pipelines.name })
    .from(pipelineAlerts)
    .innerJoin(pipelines, eq(pipelines.id, pipelineAlerts.pipelineId))
    .where(and(eq(pipelineAlerts.errorPipelineId, pipelineId), eq(pipelineAlerts.orgId, ctx.principal.orgId)));
}
