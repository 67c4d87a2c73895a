import { readProcedure, router, writeProcedure } from '@/server/api/trpc';
import { getAlertSettings } from '@/server/services/alerts/get-alert-settings';
import { setAlertSettings } from '@/server/services/alerts/set-alert-settings';
import * as S from './alert.schema';

const get = readProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/pipelines/{id}/alerts',
      tags: S.TAGS,
      summary: "A pipeline's error pipeline and alert window, with what was held back",
      description: 'See docs/alerts.md: the error pipeline started when a production run fails, and the per-code alert windows.',
      protect: true,
    },
    errors: ['PIPELINE_NOT_FOUND'],
  })
  .input(S.GetAlertsInput)
  .output(S.AlertSettings)
  .query(({ ctx, input }) => getAlertSettings(ctx, input.id));

const set = writeProcedure
  .meta({ audit: { action: 'pipeline.alerts', detail: (i) => ({ error_pipeline_id: String(i?.error_pipeline_id ?? '') }) } })
  .meta({
    openapi: {
      method: 'PUT',
      path: '/pipelines/{id}/alerts',
      tags: S.TAGS,
      summary: "Set a pipeline's error pipeline and alert window",
      description: 'No new version and no deploy: applies from the next failure. The error pipeline must start with an error trigger.',
      protect: true,
    },
    errors: ['PIPELINE_NOT_FOUND', 'VALIDATION_FAILED'],
  })
  .input(S.SetAlertsInput)
  .output(S.AlertSettings)
  .mutation(({ ctx, input }) => setAlertSettings(ctx, input));

export const alertsRouter = router({ get, set });
