import { z } from 'zod';
import { DataSettingsOverride } from '@/shared/data-settings';
import { PipelineDefinition } from '@/shared/pipeline';

export const TAGS = ['Pipelines'];

const Need = z.object({ name: z.string(), type: z.string() });

export const ExportDocument = z.object({
  format: z.literal('clinflow-pipelines'),
  format_version: z.number().int().meta({ description: 'The version of this format (1). Newer Clinflows read every older version.' }),
  exported_at: z.string(),
  pipelines: z.array(
    z.object({
      name: z.string(),
      description: z.string(),
      version: z.number().int().meta({ description: 'The version exported (an import starts at version 1)' }),
      definition: PipelineDefinition,
      data_settings: DataSettingsOverride.meta({ description: 'Its own data settings (those it does not inherit)' }),
      connectors: z.array(Need).meta({ description: 'The connectors its nodes use, by name and type: never settings or credentials' }),
    }),
  ),
});

export const ExportManyInput = z.object({ ids: z.array(z.string()).min(1).max(100).describe('Pipeline ids, in the order wanted') });

export const ImportInput = z.object({
  document: z.unknown().describe('An export document (any format_version up to this Clinflow’s), or the JSON of GET /pipelines/{id} (or an array)'),
  connector_map: z
    .record(z.string(), z.string().min(1).max(200))
    .optional()
    .describe('A connector of the file (its name) → one of this organization’s (id or name); the others are matched by name and type'),
  dry_run: z.boolean().default(false).describe('Report the matching and validation; create nothing'),
});

export const ImportReport = z.object({
  dry_run: z.boolean(),
  format_version: z.number().int(),
  pipelines: z.array(
    z.object({
      name: z.string(),
      id: z.string().nullable().describe('The new pipeline (null on a dry run)'),
      version: z.number().int().nullable(),
      status: z.string().nullable().describe('active: imports are never deployed'),
      valid: z.boolean().describe('Whether its definition passes the validator here (as POST /pipelines/validate)'),
      errors: z.array(z.string()),
      missing_connectors: z.array(z.string()).describe('Connectors it uses that matched none here'),
    }),
  ),
  connectors: z.array(Need.extend({ mapped_to: z.object({ id: z.string(), name: z.string() }).nullable() })),
  missing_connectors: z.array(Need).describe('Create connectors of these names and types (or map them) for the pipelines to run'),
});
