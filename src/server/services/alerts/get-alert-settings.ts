import type { ServiceContext } from '../context';
import { findPipelineState } from '../pipelines/find';
import { alertedBy, alertSettingsView } from './alert-views';

/** GET /api/pipelines/{id}/alerts: the pipeline's error pipeline, window, held-back counts, and who alerts through it. */
export async function getAlertSettings(ctx: ServiceContext, id: string) {
  await findPipelineState(ctx, id); // PIPELINE_NOT_FOUND, another organization's included
  const [view, by] = await Promise.all([alertSettingsView(ctx, id), alertedBy(ctx, id)]);
  return { ...view, error_pipeline_of: by };
}
