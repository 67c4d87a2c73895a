import { readProcedure, router, writeProcedure } from '@/server/api/trpc';
import { exportPipelines } from '@/server/services/transfer/export-pipelines';
import { importPipelines } from '@/server/services/transfer/import-pipelines';
import { CreatePipelineInput, PipelineId } from '../pipelines/pipeline.schema';
import * as S from './transfer.schema';

const EXPORT_NOTE = 'Connectors are named by name and type, never with settings or credentials. Format documented in docs/pipeline-export.md.';

const exportOne = readProcedure
  .meta({ audit: { action: 'pipeline.export' } })
  .meta({
    openapi: {
      method: 'GET',
      path: '/pipelines/{id}/export',
      tags: S.TAGS,
      summary: 'Export a pipeline as a portable JSON document',
      description: EXPORT_NOTE,
      protect: true,
    },
    errors: ['PIPELINE_NOT_FOUND'],
  })
  .input(PipelineId)
  .output(S.ExportDocument)
  .query(({ ctx, input }) => exportPipelines(ctx, [input.id]));

// static paths before {id}
const exportMany = readProcedure
  .meta({ audit: { action: 'pipeline.export', id: (i) => (i?.ids as string[] | undefined)?.join(' ') } })
  .meta({
    openapi: {
      method: 'POST',
      path: '/pipelines/export',
      tags: S.TAGS,
      summary: 'Export several pipelines in one document',
      description: EXPORT_NOTE,
      protect: true,
    },
    errors: ['PIPELINE_NOT_FOUND'],
  })
  .input(S.ExportManyInput)
  .output(S.ExportDocument)
  .mutation(({ ctx, input }) => exportPipelines(ctx, input.ids));

const importMany = writeProcedure
  .meta({
    audit: {
      action: 'pipeline.import',
      detail: (_i, o) => ({ created: (o?.pipelines as { id: string | null }[] | undefined)?.filter((p) => p.id).length ?? 0 }),
    },
  })
  .meta({
    openapi: {
      method: 'POST',
      path: '/pipelines/import',
      tags: S.TAGS,
      summary: 'Import pipelines from an export document (never deployed)',
      description:
        'Each pipeline is checked as a create is (one bad pipeline refuses the file: 400 VALIDATION_FAILED, nothing created) and created at ' +
        'version 1, active. Connectors are matched by connector_map, else by name and type; the report lists what matched nothing and ' +
        'each pipeline’s validation. Files of older format versions import.',
      protect: true,
    },
    successStatus: 201,
  })
  .input(S.ImportInput)
  .output(S.ImportReport)
  .mutation(({ ctx, input }) => {
    if (input.dry_run) ctx.response.status = 200; // nothing created
    return importPipelines(ctx, input, CreatePipelineInput);
  });

/** Pipelines between organizations and Clinflows (issue 30 §4). */
export const transferRouter = router({ exportOne, exportMany, importMany });
