import { eq } from 'drizzle-orm';
import { connectors } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { modifyPipeline } from '@/server/copilot/modify';
import { PipelineDefinition } from '@/shared/pipeline';
import type { ServiceContext } from '../context';
import { findPipelineRow } from '../pipelines/find';
import { updatePipeline } from '../pipelines/update-pipeline';
import { validateForCopilot } from './validate';

/**
 * POST /api/copilot/modify/pipeline: a natural-language change applied to a pipeline (by id) or a definition, then
 * validated. `apply` (with pipeline_id) saves it as the next version — only when it is valid: a change the copilot
 * could not make valid comes back with its errors and is never saved.
 */
export async function modifyForCopilot(ctx: ServiceContext, input: { pipeline_id?: string; definition?: unknown; request: string; apply?: boolean }) {
  const row = input.pipeline_id ? await findPipelineRow(ctx, input.pipeline_id) : undefined;
  const parsed = PipelineDefinition.safeParse(row?.definition ?? input.definition);
  if (!parsed.success) throw new AppError('VALIDATION_FAILED', 'Give pipeline_id, or a definition {nodes, connections}.', parsed.error.issues.map((i) => ({ path: `definition.${i.path.join('.')}`, message: i.message })));
  if (input.apply && !row) throw new AppError('VALIDATION_FAILED', '`apply` needs pipeline_id: a definition given inline has nowhere to be saved.', [{ path: 'apply', message: 'needs pipeline_id' }]);
  const own = await ctx.db.select({ name: connectors.name, type: connectors.type }).from(connectors).where(eq(connectors.orgId, ctx.principal.orgId));
  const m = modifyPipeline(parsed.data, input.request, { connectors: own });
  const validation = validateForCopilot(m.definition);
  const save = Boolean(input.apply && row && validation.valid && m.changes.length);
  const saved = save ? await updatePipeline(ctx, { id: row!.id, definition: m.definition }) : null;
  return { definition: m.definition, changes: m.changes, unresolved: m.unresolved, validation, saved_version: saved?.version ?? null, planner: 'offline' as const };
}
