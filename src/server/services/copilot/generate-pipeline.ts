import { and, eq } from 'drizzle-orm';
import { buildGraph, triggerInputs, triggerOf } from '@/engine/graph';
import { getNodeType } from '@/engine/nodes';
import { connectors } from '@/server/db/schema';
import { planPipeline } from '@/server/copilot/planner';
import type { PipelineDefinition } from '@/shared/pipeline';
import type { ServiceContext } from '../context';
import { nodeResults } from '../executions/execution-views';
import { runUnstored } from './test-run';
import { validateForCopilot } from './validate';

const DRY_RUN_LIMIT_MS = 30_000;

/** The execution inputs a sample gives the plan's trigger: as its event would (a feed's message, a webhook's body), or its fields. */
function sampleInputs(def: PipelineDefinition, sample: unknown): Record<string, unknown> {
  const graph = buildGraph(def, getNodeType);
  const trigger = triggerOf(graph);
  const kind = trigger?.def.type;
  if (kind === 'mllp-listener-trigger' && typeof sample === 'string') return triggerInputs(graph, { kind: 'mllp', message: sample, remoteAddress: '127.0.0.1', receivedAt: new Date().toISOString() }) ?? {};
  if (kind === 'webhook-trigger') return triggerInputs(graph, { kind: 'webhook', body: sample, headers: { 'content-type': typeof sample === 'string' ? 'text/plain' : 'application/json' }, query: {} }) ?? {};
  const fields = Object.keys((trigger?.def.config?.fields as Record<string, string> | undefined) ?? {});
  if (fields.length) return Object.fromEntries(fields.map((f) => [f, sample]));
  return sample && typeof sample === 'object' && !Array.isArray(sample) ? (sample as Record<string, unknown>) : { input: sample };
}

/** Runs a proposal in test mode on the organization's services (writes simulated), without storing an execution. */
async function dryRun(ctx: ServiceContext, def: PipelineDefinition, sample: unknown) {
  const r = await runUnstored(ctx, def, sampleInputs(def, sample), { label: 'copilot-dry-run', limitMs: DRY_RUN_LIMIT_MS });
  return {
    status: r.status,
    outputs: r.outputs,
    node_results: nodeResults(Object.entries(r.nodes).map(([id, n]) => ({ node_id: id, status: n.status, duration_ms: n.duration_ms, reason: n.reason }))),
    ...(r.error ? { error: r.error } : {}),
  };
}

/**
 * POST /api/copilot/generate/pipeline: the offline planner's proposal for a description, checked by the validator
 * (and the copilot's checks) and, with a sample input, dry-run in test mode. The answer says what was checked; a
 * proposal that is not valid comes back with its errors, never as if it were fine.
 */
export async function generatePipeline(ctx: ServiceContext, input: { description: string; sample_input?: unknown }) {
  const own = await ctx.db.select({ name: connectors.name, type: connectors.type }).from(connectors).where(and(eq(connectors.orgId, ctx.principal.orgId)));
  const plan = planPipeline(input.description, { connectors: own });
  const definition = { nodes: plan.pipeline.nodes, connections: plan.pipeline.connections };
  const validation = validateForCopilot(definition);
  const run = validation.valid && input.sample_input !== undefined ? await dryRun(ctx, definition, input.sample_input) : null;
  return {
    pipeline: plan.pipeline,
    validation,
    dry_run: run,
    reasoning: plan.reasoning,
    unresolved: plan.unresolved,
    planner: 'offline' as const,
  };
}
