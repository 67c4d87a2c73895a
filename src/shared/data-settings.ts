import { z } from 'zod';

/**
 * What a run keeps and for how long (issue 27). An organization has defaults; a pipeline may override any of
 * them (a field left out or null inherits the organization's). Stored in `organizations.data_settings` and
 * `pipelines.data_settings` (migration 0020); not part of a pipeline's definition, so a change applies to the
 * next run without a deploy.
 *
 * - `full`: every node's inputs and outputs;
 * - `errors`: status, timings, sizes and per-node status always; payloads only for runs that fail (and the
 *   trigger's input, so a failed run can be retried);
 * - `metadata`: never a payload, only what the execution list, stats and timeline need.
 * Test-mode runs and step sessions keep everything whatever the policy.
 */
export const DATA_POLICIES = ['full', 'errors', 'metadata'] as const;
export type DataPolicy = (typeof DATA_POLICIES)[number];

/**
 * What of an execution's payloads (its input and outputs, its nodes' inputs and outputs) is stored now, as the
 * API reports it: `kept`; `input` (only the trigger's input: a run that failed outside the engine under `errors`);
 * `not_kept` (the policy kept none); `pruned` (retention removed them). Set by the policy when a run ends and by the pruner.
 */
export const PAYLOAD_STATES = ['kept', 'input', 'not_kept', 'pruned'] as const;
export type PayloadState = (typeof PAYLOAD_STATES)[number];

const days = z.number().int().min(1).max(36_500);

/** A complete set of settings: what an organization has, and what a pipeline's resolve to. */
export const DataSettings = z.object({
  /** What a run keeps. */
  policy: z.enum(DATA_POLICIES),
  /** Days a finished run's node inputs and outputs are kept; null keeps them as long as the run itself. */
  payload_days: days.nullable(),
  /** Days a finished run (its row, per-node status and timings) is kept; null keeps it forever. */
  execution_days: days.nullable(),
  /** The most finished runs kept per pipeline, the oldest pruned first; null sets no limit. */
  max_executions: z.number().int().min(1).max(100_000_000).nullable(),
});
export type DataSettings = z.infer<typeof DataSettings>;

/** What a pipeline (or a request changing the organization's defaults) sets: absent or null inherits. */
export const DataSettingsOverride = z
  .object({
    policy: z.enum(DATA_POLICIES).nullable(),
    payload_days: days.nullable(),
    execution_days: days.nullable(),
    max_executions: z.number().int().min(1).max(100_000_000).nullable(),
  })
  .partial();
export type DataSettingsOverride = z.infer<typeof DataSettingsOverride>;

/**
 * The defaults of an organization that set none. `full` stays the default policy so that what a new user sees
 * in a run (every node's data) is what they saw before; retention bounds it (see docs/decisions.md).
 */
export const DEFAULT_DATA_SETTINGS: DataSettings = {
  policy: 'full',
  payload_days: 30,
  execution_days: 365,
  max_executions: null,
};

/** The organization's settings: its stored overrides over the defaults. */
export function orgDataSettings(stored: DataSettingsOverride | null | undefined): DataSettings {
  return resolveDataSettings(DEFAULT_DATA_SETTINGS, stored);
}

/** A pipeline's settings: its overrides over its organization's. A null in the override inherits. */
export function resolveDataSettings(base: DataSettings, override: DataSettingsOverride | null | undefined): DataSettings {
  if (!override) return base;
  return {
    policy: override.policy ?? base.policy,
    payload_days: override.payload_days === undefined || override.payload_days === null ? base.payload_days : override.payload_days,
    execution_days: override.execution_days === undefined || override.execution_days === null ? base.execution_days : override.execution_days,
    max_executions: override.max_executions === undefined || override.max_executions === null ? base.max_executions : override.max_executions,
  };
}
