import { z } from 'zod';
import { DATA_POLICIES, DataSettingsOverride } from '@/shared/data-settings';
import { PipelineDefinition } from '@/shared/pipeline';
import { holdsUnstorable, NO_NUL } from '../storable';

const DataSettingsValues = z.object({
  policy: z.enum(DATA_POLICIES).describe('full: every node input and output; errors: payloads only of failed runs; metadata: never a payload'),
  payload_days: z.number().int().nullable().describe("Days a finished run's payloads are kept; null: as long as the run"),
  execution_days: z.number().int().nullable().describe('Days a finished run is kept; null: forever'),
  max_executions: z.number().int().nullable().describe('Most finished runs kept per pipeline; null: no limit'),
});

/** Data settings as shown: what applies, what is set here, what is inherited and from what. */
export const DataSettingsView = z.object({
  effective: DataSettingsValues.describe('The values that apply'),
  overrides: z
    .object({
      policy: z.enum(DATA_POLICIES).nullable(),
      payload_days: z.number().int().nullable(),
      execution_days: z.number().int().nullable(),
      max_executions: z.number().int().nullable(),
    })
    .describe('The values set here; null inherits'),
  inherited: z.array(z.enum(['policy', 'payload_days', 'execution_days', 'max_executions'])).describe('The keys whose value is inherited'),
  defaults: DataSettingsValues.describe("What is inherited: the organization's settings for a pipeline, the built-in defaults for an organization"),
});

export const PipelineId = z.object({ id: z.string().describe('Pipeline UUID') });

export const Paging = {
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('Page size, 1 to 100 (default 20)'),
  offset: z.coerce.number().int().min(0).default(0).describe('Number of results to skip'),
};

const Name = z
  .string()
  .trim()
  .min(1, 'name must not be empty')
  .max(200)
  .refine((s) => !s.includes('\u0000'), NO_NUL);
const Description = z
  .string()
  .max(5000)
  .refine((s) => !s.includes('\u0000'), NO_NUL);
/** A definition whose strings (node names, configs) hold no NUL character and no lone surrogate. */
const Definition = PipelineDefinition.refine((d) => !holdsUnstorable(d), `strings in the definition ${NO_NUL} or a lone UTF-16 surrogate`);

/** A change of data settings (policy, retention): keys given replace, null inherits again, keys left out stay. Unknown keys are refused. */
export const DataSettingsChange = DataSettingsOverride.strict().describe(
  'What runs keep and for how long: policy (full | errors | metadata), payload_days, execution_days, max_executions. ' +
    "A value set here overrides the organization's default; null inherits it again; a key left out is unchanged. " +
    'Not part of the definition: no new version, and it applies to the next run without a deploy.',
);

export const CreatePipelineInput = z.object({
  name: Name,
  description: Description.default(''),
  definition: Definition.default({ nodes: [], connections: [] }),
  data_settings: DataSettingsChange.optional(),
});

export const UpdatePipelineInput = PipelineId.extend({
  name: Name.optional(),
  description: Description.optional(),
  definition: Definition.optional(),
  expected_version: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Apply the update only if the pipeline is still at this version (409 VERSION_CONFLICT otherwise)'),
  data_settings: DataSettingsChange.optional(),
}).refine((v) => v.name !== undefined || v.description !== undefined || v.definition !== undefined || v.data_settings !== undefined, {
  message: 'send at least one of name, description, definition, data_settings',
});

export const PipelineSummary = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  status: z.enum(['active', 'deployed']),
  version: z.number().int().describe('The latest saved version (every save makes one)'),
  deployed_version: z
    .number()
    .int()
    .nullable()
    .describe('The version production runs use (API, webhooks, schedules, listeners) until the next deploy; null when not deployed'),
  node_count: z.number().int(),
  deployed_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const Pipeline = PipelineSummary.extend({ definition: PipelineDefinition });

export const PipelineWithMetadata = Pipeline.extend({
  metadata: z.object({
    created_by: z.string().nullable().describe('Who created the pipeline: user:<id> or api-key:<id>'),
    updated_by: z.string().nullable().describe('Who made its current version'),
    created_at: z.string(),
    updated_at: z.string(),
    node_count: z.number().int(),
    connection_count: z.number().int(),
    node_types: z.array(z.string()).describe('Node types used, sorted'),
    deployed_version: z.number().int().nullable().describe('The version that runs when triggered (as deployed_version above), or null when not deployed'),
    deployed_at: z.string().nullable(),
    data_settings: DataSettingsView.describe("What its runs keep and for how long: its own settings over its organization's defaults"),
  }),
});

export const PipelineList = z.object({ pipelines: z.array(PipelineSummary), total_count: z.number().int() });

export const VersionSummary = z.object({
  version: z.number().int(),
  name: z.string(),
  description: z.string(),
  created_by: z.string().nullable(),
  created_at: z.string(),
});

export const VersionList = z.object({ versions: z.array(VersionSummary), total_count: z.number().int() });

export const PipelineVersion = VersionSummary.extend({ pipeline_id: z.string(), definition: PipelineDefinition });
