import { and, eq } from 'drizzle-orm';
import { copilotSuggestions } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { editPipeline } from '@/server/copilot/edit';
import { copilotFixFor as changeFor } from '@/shared/copilot-fixes';
import { PipelineDefinition } from '@/shared/pipeline';
import { isUuid, type ServiceContext } from '../context';
import { findPipelineRow } from '../pipelines/find';
import { updatePipeline } from '../pipelines/update-pipeline';
import { copilotFindings } from './checks';
import { validateForCopilot } from './validate';

type Row = typeof copilotSuggestions.$inferSelect;

const view = (r: Row) => ({
  id: r.id,
  pipeline_id: r.pipelineId,
  pipeline_version: r.pipelineVersion,
  kind: r.kind,
  node_id: r.nodeId,
  title: r.title,
  change: r.change,
  status: r.status,
  applied_version: r.appliedVersion,
  created_at: r.createdAt.toISOString(),
});

/**
 * POST /api/copilot/suggestions {pipeline_id}: improvements for the pipeline's current version, each a concrete
 * change with an id (stored; the open ones of earlier versions are replaced).
 */
export async function suggest(ctx: ServiceContext, input: { pipeline_id: string }) {
  const p = await findPipelineRow(ctx, input.pipeline_id);
  const seen = new Set<string>();
  const values = copilotFindings(PipelineDefinition.parse(p.definition)).flatMap((f) => {
    const c = changeFor(f);
    if (!c || seen.has(c.change)) return [];
    seen.add(c.change);
    return [{ orgId: ctx.principal.orgId, pipelineId: p.id, pipelineVersion: p.version, kind: f.code, nodeId: f.node_id, ...c }];
  });
  const rows = await ctx.db.transaction(async (tx) => {
    await tx
      .delete(copilotSuggestions)
      .where(and(eq(copilotSuggestions.pipelineId, p.id), eq(copilotSuggestions.orgId, ctx.principal.orgId), eq(copilotSuggestions.status, 'open')));
    return values.length ? tx.insert(copilotSuggestions).values(values).returning() : [];
  });
  return { pipeline_id: p.id, pipeline_version: p.version, suggestions: rows.map(view) };
}

/** POST /api/copilot/suggestions/{id}/apply: the change made to the version it was made for, saved as the next version. */
export async function applySuggestion(ctx: ServiceContext, id: string) {
  const [s] = isUuid(id)
    ? await ctx.db
        .select()
        .from(copilotSuggestions)
        .where(and(eq(copilotSuggestions.id, id), eq(copilotSuggestions.orgId, ctx.principal.orgId)))
    : [];
  if (!s) throw new AppError('SUGGESTION_NOT_FOUND', `Suggestion ${id} was not found.`);
  if (s.status === 'applied') throw new AppError('SUGGESTION_APPLIED', `Suggestion ${id} was applied already (version ${s.appliedVersion}).`);
  const p = await findPipelineRow(ctx, s.pipelineId);
  if (p.version !== s.pipelineVersion)
    throw new AppError(
      'SUGGESTION_STALE',
      `Suggestion ${id} was made for version ${s.pipelineVersion}; the pipeline is at version ${p.version}: ask for suggestions again.`,
    );
  const m = editPipeline(PipelineDefinition.parse(p.definition), s.change);
  const validation = validateForCopilot(m.definition);
  if (!validation.valid || !m.changes.length) {
    throw new AppError(
      'SUGGESTION_NOT_APPLICABLE',
      [
        `The change "${s.change}" does not give a valid pipeline:`,
        `${[...validation.errors.map((e) => e.message), ...m.unresolved].join('; ') || 'nothing changed'}.`,
      ].join(' '),
      { errors: validation.errors, unresolved: m.unresolved },
    );
  }
  const saved = await updatePipeline(ctx, { id: p.id, definition: m.definition, expected_version: p.version });
  const [applied] = await ctx.db
    .update(copilotSuggestions)
    .set({ status: 'applied', appliedVersion: saved.version })
    .where(eq(copilotSuggestions.id, s.id))
    .returning();
  return { suggestion: view(applied!), pipeline_version: saved.version, changes: m.changes, validation };
}

/**
 * POST /api/copilot/refine/pipeline: every suggestion's change made at once — de-identification before external
 * models, validation before FHIR writes, retries on writes — validated; `apply` saves a valid result as the next version.
 */
export async function refine(ctx: ServiceContext, input: { pipeline_id?: string; definition?: unknown; apply?: boolean }) {
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
  let def = parsed.data;
  const changes: string[] = [];
  const unresolved: string[] = [];
  const done = new Set<string>();
  for (const f of copilotFindings(def)) {
    const c = changeFor(f);
    if (!c || done.has(c.change)) continue;
    done.add(c.change);
    const m = editPipeline(def, c.change);
    if (m.validation.valid && m.changes.length) {
      def = m.definition;
      changes.push(...m.changes);
    } else unresolved.push(`${c.title}: ${[...m.validation.errors.map((e) => e.message), ...m.unresolved].join('; ')}`);
  }
  const validation = validateForCopilot(def);
  const saved = input.apply && row && validation.valid && changes.length ? await updatePipeline(ctx, { id: row.id, definition: def }) : null;
  return { definition: def, changes, unresolved, validation, saved_version: saved?.version ?? null, planner: 'offline' as const };
}
