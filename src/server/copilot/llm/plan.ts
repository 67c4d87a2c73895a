import type { LanguageModelV4 } from '@ai-sdk/provider';
import { generateText, NoObjectGeneratedError, Output, type ModelMessage } from 'ai';
import { z } from 'zod';
import { NODE_DESCRIPTORS } from '@/engine/nodes/descriptors';
import type { PipelineConnection, PipelineNode } from '@/shared/pipeline';
import { planPipeline, type Plan, type PlanOptions } from '../planner';
import { validate, validText } from '../planner/repair';
import { layered } from './layout';
import { relevantNodeTypes, repairPrompt, requestPrompt, systemPrompt } from './prompt';

/** Answers the model may give before the proposal goes back with its errors: the first and two repairs. */
export const MAX_ATTEMPTS = 3;

const NODE_TYPES = NODE_DESCRIPTORS.map((d) => d.id) as [string, ...string[]];

/*
 * The answer's shape, constrained to the catalog: the node type is an enum of every type there is. Strict
 * structured output (OpenAI, OpenAI-compatible servers) allows no free-form objects, so a node's config is JSON
 * text, parsed and then checked against the node's own schema by the validator.
 */
export const Answer = z.strictObject({
  name: z.string().describe('A short name for the pipeline'),
  reasoning: z.array(z.string()).describe('The design in a few short steps'),
  nodes: z.array(
    z.strictObject({
      id: z.string().describe('Unique snake_case id'),
      type: z.enum(NODE_TYPES).describe('The node type, from the catalog'),
      config: z.string().describe('The node config as a JSON object, e.g. {"key":"result"}; {} for the defaults'),
    }),
  ),
  connections: z.array(z.strictObject({ source: z.string(), source_port: z.string(), target: z.string(), target_port: z.string() })),
});
export type Answer = z.infer<typeof Answer>;

export interface ModelPlan extends Plan {
  /** How many answers the model gave (1 when the first was valid). */
  attempts: number;
  usage: { input_tokens: number; output_tokens: number };
  valid: boolean;
}

/** The model's answer as a definition; a config that is not a JSON object is a problem for the next attempt. */
export function toDefinition(answer: Answer): { nodes: PipelineNode[]; connections: PipelineConnection[]; problems: string[] } {
  const problems: string[] = [];
  const nodes = answer.nodes.map((n) => {
    let config: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(n.config || '{}');
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) config = parsed as Record<string, unknown>;
      else problems.push(`${n.id}: config must be a JSON object, got ${n.config}`);
    } catch {
      problems.push(`${n.id}: config is not valid JSON: ${n.config}`);
    }
    return { id: n.id, type: n.type, config, position: { x: 0, y: 0 } };
  });
  const connections = answer.connections.map((c) => ({ source: c.source, source_port: c.source_port, target: c.target, target_port: c.target_port }));
  return { nodes: layered(nodes, connections), connections, problems };
}

export const problemText = (e: { node_id: string | null; code: string; message: string }) => `${e.node_id ?? 'pipeline'}: ${e.code}: ${e.message}`;

/**
 * Plans a pipeline with a language model: the relevant catalog entries in the prompt (the triggers, what the
 * offline planner would choose for the same request, the best catalog-search hits), the answer constrained to the
 * catalog by structured output, then checked by the engine's validator. When the answer is not valid — a config
 * against the node's schema, ports that do not fit, a node nothing feeds — the model is asked again with the
 * validator's findings, up to MAX_ATTEMPTS answers; a proposal still not valid comes back with its errors in
 * `unresolved` and `valid: false`, never as if it were fine. A failing model call throws (the caller decides).
 */
export async function planWithModel(
  model: LanguageModelV4,
  modelId: string,
  description: string,
  options: PlanOptions & { signal?: AbortSignal } = {},
): Promise<ModelPlan> {
  const connectors = options.connectors ?? [];
  const offline = planPipeline(description, { connectors });
  const types = relevantNodeTypes(
    description,
    offline.pipeline.nodes.map((n) => n.type),
  );
  const system = systemPrompt(types);
  const messages: ModelMessage[] = [{ role: 'user', content: requestPrompt(description, connectors) }];
  const reasoning = [
    `Asked ${modelId}, with ${types.length} catalog entries relevant to the request in the prompt ` +
      `and the answer constrained to the catalog's ${NODE_TYPES.length} node types.`,
  ];
  const usage = { input_tokens: 0, output_tokens: 0 };
  let last: { name: string; nodes: PipelineNode[]; connections: PipelineConnection[] } = { name: offline.pipeline.name, nodes: [], connections: [] };
  let problems: string[] = [];
  let attempt = 0;
  while (attempt < MAX_ATTEMPTS) {
    attempt++;
    let answer: Answer;
    try {
      const r = await generateText({
        model,
        system,
        messages,
        output: Output.object({ schema: Answer }),
        temperature: 0,
        maxRetries: 1,
        abortSignal: options.signal,
      });
      usage.input_tokens += r.usage.inputTokens ?? 0;
      usage.output_tokens += r.usage.outputTokens ?? 0;
      answer = r.output;
    } catch (e) {
      if (!NoObjectGeneratedError.isInstance(e)) throw e;
      usage.input_tokens += e.usage?.inputTokens ?? 0;
      usage.output_tokens += e.usage?.outputTokens ?? 0;
      problems = [`the answer did not have the required shape (${((e.cause as Error | undefined)?.message ?? e.message).slice(0, 500)})`];
      reasoning.push(`Answer ${attempt}: not in the required shape; asked again.`);
      messages.push({ role: 'assistant', content: e.text ?? '' }, { role: 'user', content: repairPrompt(problems) });
      continue;
    }
    const def = toDefinition(answer);
    last = { name: answer.name.trim() || offline.pipeline.name, nodes: def.nodes, connections: def.connections };
    const report = validate(last);
    problems = [...def.problems, ...report.errors.map(problemText)];
    if (attempt === 1) reasoning.push(...answer.reasoning.map((s) => `${modelId}: ${s}`));
    if (problems.length === 0) {
      reasoning.push(`Answer ${attempt}: checked with the engine's validator: ${validText(report.warnings)}.`);
      return { pipeline: last, reasoning, unresolved: [], attempts: attempt, usage, valid: true };
    }
    reasoning.push(
      `Answer ${attempt}: the validator found ${problems.length} problem${problems.length > 1 ? 's' : ''} (${problems.join('; ')})` +
        `${attempt < MAX_ATTEMPTS ? '; asked the model to correct them' : ''}.`,
    );
    messages.push({ role: 'assistant', content: JSON.stringify(answer) }, { role: 'user', content: repairPrompt(problems) });
  }
  reasoning.push(`After ${MAX_ATTEMPTS} answers the proposal is still not valid: it comes back with its errors.`);
  return { pipeline: last, reasoning, unresolved: problems, attempts: attempt, usage, valid: false };
}
