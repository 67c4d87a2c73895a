import { z } from 'zod';

export const TAGS = ['Alerts'];

const Id = z.uuid().describe('The pipeline id');

export const GetAlertsInput = z.object({ id: Id });

export const SetAlertsInput = z.object({
  id: Id,
  error_pipeline_id: z
    .uuid()
    .nullable()
    .describe('The pipeline started with an error-event when a production run of this one fails (it starts with an error trigger); null: no alerts'),
  window_seconds: z
    .number()
    .int()
    .min(1)
    .max(7 * 86_400)
    .optional()
    .describe('At most one alert per error code within this many seconds; the failures held back are counted into the next (default 900)'),
});

export const AlertSettings = z.object({
  pipeline_id: z.string(),
  error_pipeline_id: z.string().nullable(),
  error_pipeline_name: z.string().nullable(),
  window_seconds: z.number().int(),
  windows: z
    .array(
      z.object({
        error_code: z.string(),
        last_alert_at: z.string().describe('When the last alert for this code was sent'),
        held_back: z.number().int().describe('Failures held back since then (sent with the next alert)'),
        last_failed_at: z.string(),
      }),
    )
    .describe('Per error code: the last alert and what was held back since (the 50 latest codes)'),
  error_pipeline_of: z.array(z.object({ id: z.string(), name: z.string() })).describe('Pipelines that name this one as their error pipeline'),
});
