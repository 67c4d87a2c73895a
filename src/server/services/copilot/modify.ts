import { eq } from 'drizzle-orm';
import { OFFLINE_ENTRY } from '@/server/ai/catalog';
import { getLanguageModel } from '@/server/ai/models';
import { editPipeline, type EditResult } from '@/server/copilot/edit';
import { editWithModel } from '@/server/copilot/llm/edit';
import { connectors } from '@/server/db/schema';
import { env } from '@/env';
import { AppError } from '@/server/errors';
import { errorForLog, logger } from '@/server/logger';
import { PipelineDefinition } from '@/shared/pipeline';
import type { ServiceContext } from '../context';
import { findPipelineRow } from '../pipelines/find';
import { updatePipeline } from '../pipelines/update-pipeline';
import { dryRun } from './generate-pipeline';
import { validateForCopilot } from './validate';

export interface EditInput {
  pipeline_id?: string;
  definition?: unknown;
  request: string;
  apply?: boolean;
  /** The language model to edit with (default COPILOT_MODEL; clinflow/offline: the rule-based planner). */
  model?: string;
  /** A sample input: a valid result is dry-run on it in test mode (writes simulated) before it is shown. */
  sample_input?: unknown;
}

type Edited = EditResult & { planner: 'offline' | 'llm'; model: string; reasoning: string[] };

/** The edit by the model named (or COPILOT_MODEL): the LLM path with its repair rounds, else the rule-based planner. */
async function edit(def: PipelineDefinition, request: string, own: { name: string; type: string }[], modelId: string): Promise<Edited> {
  if (modelId === OFFLINE_ENTRY.id) return { ...editPipeline(def, request, { connectors: own }), planner: 'offline', model: modelId, reasoning: [] };
  const model = getLanguageModel(modelId);
  try {
    return { ...(await editWithModel(model, modelId, def, request, { connectors: own })), planner: 'llm', model: modelId };
  } catch (e) {
    logger.warn('copilot edit: model call failed', { model: modelId, error: errorForLog(e) });
    const why = `The language model call failed (${modelId}: ${String((e as Error)?.message ?? e).slice(0, 300)}); the rule-based planner answered instead.`;
    return { ...editPipeline(def, request, { connectors: own }), planner: 'offline', model: OFFLINE_ENTRY.id, reasoning: [why] };
  }
}

/**
 * POST /api/copilot/modify/pipeline (and the copilot chat): a change asked in words made to a pipeline (by id) or a
 * definition by the edit planner, validated, and dry-run on `sample_input` when one is given. `apply` (with
 * pipeline_id) saves it as the next version — only a valid result that changes something: what could not be done
 * comes back in `unresolved`, in words, and nothing is saved.
 */
export async function modifyForCopilot(ctx: ServiceContext, input: EditInput) {
  const row = input.pipeline_id ? await findPipelineRow(ctx, input.pipeline_id) : undefined;
  const parsed = PipelineDefinition.safeParse(row?.definition ?? input.definition);
  if (!parsed.success)
    throw new AppError(
      'VALIDATION_FAILED',
      'Give pipeline_id, or a definition {nodes, connections}.',
      parsed.error.issues.map((i) => ({ path: `definition.${i.path.join('.')}`, message: i.message })),
    );
  if (input.apply && !row)
    throw new AppError('VALIDATION_FAILED', '`apply` needs pipeline_id: a definition given inline has nowhere to be saved.', [
      { path: 'apply', message: 'needs pipeline_id' },
    ]);
  const own = await ctx.db.select({ name: connectors.name, type: connectors.type }).from(connectors).where(eq(connectors.orgId, ctx.principal.orgId));
  const e = await edit(parsed.data, input.request, own, input.model ?? env.COPILOT_MODEL);
  const definition = { ...parsed.data, nodes: e.definition.nodes, connections: e.definition.connections };
  const validation = validateForCopilot(definition);
  const changed = e.diff.added.length + e.diff.removed.length + e.diff.rewired.length + e.diff.changed.length > 0;
  const run = validation.valid && changed && input.sample_input !== undefined ? await dryRun(ctx, definition, input.sample_input) : null;
  const save = Boolean(input.apply && row && validation.valid && changed);
  const saved = save ? await updatePipeline(ctx, { id: row!.id, definition }) : null;
  const unresolved = [
    ...e.unresolved,
    ...(input.apply && row && !save ? [`nothing was saved: ${!changed ? 'the request changed nothing' : 'the result is not valid'}`] : []),
  ];
  return {
    definition,
    changes: e.changes,
    unresolved,
    validation,
    diff: e.diff,
    dry_run: run,
    saved_version: saved?.version ?? null,
    planner: e.planner,
    model: e.model,
    reasoning: e.reasoning,
  };
}
