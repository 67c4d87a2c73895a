import { eq } from 'drizzle-orm';
import { buildGraph } from '@/engine/graph';
import { getNodeType } from '@/engine/nodes';
import { connectors } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { configureNode } from '@/server/copilot/planner';
import { PipelineDefinition } from '@/shared/pipeline';
import type { ServiceContext } from '../context';
import { findPipelineRow } from '../pipelines/find';
import { updatePipeline } from '../pipelines/update-pipeline';
import { validateForCopilot } from './validate';

const ownConnectors = (ctx: ServiceContext) =>
  ctx.db.select({ name: connectors.name, type: connectors.type }).from(connectors).where(eq(connectors.orgId, ctx.principal.orgId));

/** POST /api/copilot/configure/node: a configuration for a node type from a description. */
export async function configureNodeFor(ctx: ServiceContext, input: { node_type: string; description: string; config?: Record<string, unknown> }) {
  const r = configureNode(input.node_type, input.description, { base: input.config, connectors: await ownConnectors(ctx) });
  if (!r) throw new AppError('NODE_TYPE_NOT_FOUND', `There is no node type "${input.node_type}" in the catalog.`);
  return {
    node_type: input.node_type,
    config: r.config,
    valid: r.problem === null,
    problems: r.problem ? [r.problem] : [],
    filled: r.filled,
    missing: r.missing,
    planner: 'offline' as const,
  };
}

/** Whether a node still needs configuring: its config does not fit its schema, or it needs a connector it lacks. */
function unconfigured(type: string, config: Record<string, unknown>): boolean {
  const t = getNodeType(type);
  if (!t) return false;
  if (!t.config.safeParse(config).success) return true;
  const wantsConnector = 'connector' in ((t.config as { shape?: Record<string, unknown> }).shape ?? {});
  // a node that picks its connector itself (an HTTP request may take a URL instead) does not need one
  return wantsConnector && !config.connector && !t.plan?.ownConnector;
}

/**
 * POST /api/copilot/auto-configure/pipeline: each node that is not configured yet (its config does not fit its
 * schema, or it lacks the connector it needs) configured from the description (default: the pipeline's name and
 * description), the input it receives, and the organization's connectors. A proposal, validated; with `apply`
 * it is saved as the pipeline's next version.
 */
export async function autoConfigure(ctx: ServiceContext, input: { pipeline_id?: string; definition?: unknown; description?: string; apply?: boolean }) {
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
  const description = input.description ?? [row?.name, row?.description].filter(Boolean).join('. ');
  const own = await ownConnectors(ctx);
  const graph = buildGraph(parsed.data, getNodeType);
  const changes: Array<{ node_id: string; filled: string[]; missing: string[] }> = [];
  const nodes = parsed.data.nodes.map((n) => {
    if (!unconfigured(n.type, n.config)) return n;
    const from = graph.incoming.get(n.id)?.[0];
    const inputType = from ? graph.nodes.get(from.source)?.outputs.find((p) => p.name === from.source_port)?.type : undefined;
    const r = configureNode(n.type, description, { base: n.config, connectors: own, inputType });
    if (!r) return n;
    changes.push({ node_id: n.id, filled: r.filled, missing: r.problem ? [...r.missing, r.problem] : r.missing });
    return { ...n, config: r.config };
  });
  const definition = { ...parsed.data, nodes };
  const validation = validateForCopilot(definition);
  const saved = input.apply && row && changes.length ? await updatePipeline(ctx, { id: row.id, definition }) : null;
  return { definition, changes, validation, saved_version: saved?.version ?? null, planner: 'offline' as const };
}
