import { z } from 'zod';
import { PipelineDefinition } from '@/shared/pipeline';
import { holdsUnstorable, NO_NUL } from '../storable';

export const PipelineId = z.object({ id: z.string().describe('Pipeline UUID') });

export const Paging = {
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('Page size, 1 to 100 (default 20)'),
  offset: z.coerce.number().int().min(0).default(0).describe('Number of results to skip'),
};

const Name = z.string().trim().min(1, 'name must not be empty').max(200).refine((s) => !s.includes('\u0000'), NO_NUL);
const Description = z.string().max(5000).refine((s) => !s.includes('\u0000'), NO_NUL);
/** A definition whose strings (node names, configs) hold no NUL character and no lone surrogate. */
const Definition = PipelineDefinition.refine((d) => !holdsUnstorable(d), `strings in the definition ${NO_NUL} or a lone UTF-16 surrogate`);

export const CreatePipelineInput = z.object({
  name: Name,
  description: Description.default(''),
  definition: Definition.default({ nodes: [], connections: [] }),
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
}).refine((v) => v.name !== undefined || v.description !== undefined || v.definition !== undefined, {
  message: 'send at least one of name, description, definition',
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
