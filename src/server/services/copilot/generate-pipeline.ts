import { and, eq } from 'drizzle-orm';
import { buildGraph, triggerInputs, triggerOf } from '@/engine/graph';
import { getNodeType } from '@/engine/nodes';
import { connectors } from '@/server/db/schema';
import { planPipeline, type Plan } from '@/server/copilot/planner';
import { planWithModel } from '@/server/copilot/llm/plan';
import { getLanguageModel } from '@/server/ai/models';
import { OFFLINE_ENTRY } from '@/server/ai/catalog';
import { env } from '@/env';
import { errorForLog, logger } from '@/server/logger';
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
  const events = trigger?.type?.trigger?.events ?? [];
  if (events.includes('mllp') && typeof sample === 'string') {
    return triggerInputs(graph, { kind: 'mllp', message: sample, remoteAddress: '127.0.0.1', receivedAt: new Date().toISOString() }) ?? {};
  }
  if (events.includes('webhook')) {
    const headers = { 'content-type': typeof sample === 'string' ? 'text/plain' : 'application/json' };
    return triggerInputs(graph, { kind: 'webhook', body: sample, headers, query: {} }) ?? {};
  }
  const fields = Object.keys((trigger?.def.config?.fields as Record<string, string> | undefined) ?? {});
  if (fields.length) return Object.fromEntries(fields.map((f) => [f, sample]));
  return sample && typeof sample === 'object' && !Array.isArray(sample) ? (sample as Record<string, unknown>) : { input: sample };
}

/** Runs a proposal in test mode on the organization's services (writes simulated), without storing an execution. */
export async function dryRun(ctx: ServiceContext, def: PipelineDefinition, sample: unknown) {
  const r = await runUnstored(ctx, def, sampleInputs(def, sample), { label: 'copilot-dry-run', limitMs: DRY_RUN_LIMIT_MS });
  return {
    status: r.status,
    outputs: r.outputs,
    node_results: nodeResults(Object.entries(r.nodes).map(([id, n]) => ({ node_id: id, status: n.status, duration_ms: n.duration_ms, reason: n.reason }))),
    ...(r.error ? { error: r.error } : {}),
  };
}

/** The planner's answer before the checks: which planner made it, and with a model, what it cost. */
interface Planned extends Plan {
  planner: 'offline' | 'llm';
  model: string;
  attempts?: number;
  usage?: { input_tokens: number; output_tokens: number };
}

/**
 * Plans with the model the request names (or COPILOT_MODEL): the LLM planner for a language model, the offline
 * planner for clinflow/offline. A model that is not available is the caller's mistake (400 MODEL_UNAVAILABLE /
 * MODEL_NOT_FOUND, before any work). A model call that fails falls back to the offline planner, saying so.
 */
async function plan(description: string, own: { name: string; type: string }[], modelId: string): Promise<Planned> {
  if (modelId === OFFLINE_ENTRY.id) return { ...planPipeline(description, { connectors: own }), planner: 'offline', model: modelId };
  const model = getLanguageModel(modelId);
  try {
    const p = await planWithModel(model, modelId, description, { connectors: own });
    return { ...p, planner: 'llm', model: modelId };
  } catch (e) {
    logger.warn('copilot planner: model call failed', { model: modelId, error: errorForLog(e) });
    const why = `The language model call failed (${modelId}: ${String((e as Error)?.message ?? e).slice(0, 300)}).`;
    const offline = planPipeline(description, { connectors: own });
    return { ...offline, reasoning: [`${why} The offline planner answered instead.`, ...offline.reasoning], planner: 'offline', model: OFFLINE_ENTRY.id };
  }
}

/**
 * POST /api/copilot/generate/pipeline: a proposal for a description — by the LLM planner when a language model is
 * named (body `model`, else COPILOT_MODEL), by the offline planner otherwise — checked by the validator (and the
 * copilot's checks) and, with a sample input, dry-run in test mode. The answer says what was checked; a proposal
 * that is not valid comes back with its errors, never as if it were fine.
 */
export async function generatePipeline(ctx: ServiceContext, input: { description: string; sample_input?: unknown; model?: string }) {
  const own = await ctx.db
    .select({ name: connectors.name, type: connectors.type })
    .from(connectors)
    .where(and(eq(connectors.orgId, ctx.principal.orgId)));
  const p = await plan(input.description, own, input.model ?? env.COPILOT_MODEL);
  const definition = { nodes: p.pipeline.nodes, connections: p.pipeline.connections };
  const validation = validateForCopilot(definition);
  const run = validation.valid && input.sample_input !== undefined ? await dryRun(ctx, definition, input.sample_input) : null;
  return {
    pipeline: p.pipeline,
    validation,
    dry_run: run,
    reasoning: p.reasoning,
    unresolved: p.unresolved,
    planner: p.planner,
    model: p.model,
    ...(p.attempts !== undefined ? { attempts: p.attempts } : {}),
    ...(p.usage ? { usage: p.usage } : {}),
  };
}
