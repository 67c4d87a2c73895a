import type { LanguageModelV4 } from '@ai-sdk/provider';
import { generateText, NoObjectGeneratedError, Output, type ModelMessage } from 'ai';
import type { PipelineDefinition } from '@/shared/pipeline';
import { editPipeline, type EditResult } from '../edit';
import { describeDiff } from '../edit/describe';
import { diffDefinitions } from '../edit/diff';
import { layoutAdded } from '../edit/layout';
import type { Connector } from '../planner/configure';
import { validate } from '../planner/repair';
import { Answer, MAX_ATTEMPTS, problemText, toDefinition } from './plan';
import { relevantNodeTypes, repairPrompt, systemPrompt } from './prompt';

export interface ModelEdit extends EditResult {
  attempts: number;
  usage: { input_tokens: number; output_tokens: number };
  /** How the answer came about, in words. */
  reasoning: string[];
}

/** The pipeline as the model sees it: ids, types, configs and connections (positions left out). */
function current(def: PipelineDefinition): string {
  return JSON.stringify({
    nodes: def.nodes.map((n) => ({ id: n.id, type: n.type, config: n.config })),
    connections: def.connections.map(({ source, source_port, target, target_port }) => ({ source, source_port, target, target_port })),
  });
}

function editPrompt(def: PipelineDefinition, request: string, connectors: Connector[], offline: EditResult): string {
  const own = connectors.length ? connectors.map((c) => `- "${c.name}" (${c.type})`).join('\n') : 'None yet: leave connector fields out.';
  const hint = offline.changes.length ? `\n\nA rule-based planner proposed: ${offline.changes.join('; ')}.` : '';
  return [
    `Change this pipeline as the request says, and keep everything the request does not ask to change (the same node ids, types and configs).`,
    `\nThe pipeline:\n${current(def)}`,
    `\nThe request:\n${request}`,
    `\nThe organization's connectors:\n${own}${hint}`,
    `\nAnswer with the whole changed pipeline: a short name, the changes in a few short steps (reasoning), the nodes and the connections.`,
  ].join('\n');
}

/**
 * Edits a pipeline with a language model (issue 31): the current definition, the request, the catalog entries of the
 * types it has and the ones the request may need in the prompt; the answer (the whole changed pipeline, constrained
 * to the catalog) checked by the engine's validator and sent back with its findings up to MAX_ATTEMPTS answers, as
 * generate/pipeline does. An answer still not valid is not shown: the rule-based edit answers, saying so. Nodes the
 * model kept keep their positions. A failing model call throws (the caller decides).
 */
export async function editWithModel(
  model: LanguageModelV4,
  modelId: string,
  def: PipelineDefinition,
  request: string,
  opts: { connectors?: Connector[]; signal?: AbortSignal } = {},
): Promise<ModelEdit> {
  const connectors = opts.connectors ?? [];
  const offline = editPipeline(def, request, { connectors });
  const types = relevantNodeTypes(request, [...def.nodes.map((n) => n.type), ...offline.definition.nodes.map((n) => n.type)]);
  const system = systemPrompt(types);
  const messages: ModelMessage[] = [{ role: 'user', content: editPrompt(def, request, connectors, offline) }];
  const reasoning = [`Asked ${modelId} to change the pipeline, with ${types.length} catalog entries in the prompt.`];
  const usage = { input_tokens: 0, output_tokens: 0 };
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    let answer: Answer;
    try {
      const r = await generateText({
        model,
        system,
        messages,
        output: Output.object({ schema: Answer }),
        temperature: 0,
        maxRetries: 1,
        abortSignal: opts.signal,
      });
      usage.input_tokens += r.usage.inputTokens ?? 0;
      usage.output_tokens += r.usage.outputTokens ?? 0;
      answer = r.output;
    } catch (e) {
      if (!NoObjectGeneratedError.isInstance(e)) throw e;
      messages.push(
        { role: 'assistant', content: e.text ?? '' },
        {
          role: 'user',
          content: repairPrompt([`the answer did not have the required shape (${String((e.cause as Error | undefined)?.message ?? e.message).slice(0, 300)})`]),
        },
      );
      reasoning.push(`Answer ${attempt}: not in the required shape; asked again.`);
      continue;
    }
    const parsed = toDefinition(answer);
    const was = new Map(def.nodes.map((n) => [n.id, n]));
    const next: PipelineDefinition = {
      ...def,
      nodes: parsed.nodes.map((n) => ({ ...(was.get(n.id) ?? {}), ...n, position: was.get(n.id)?.position ?? n.position })),
      connections: parsed.connections,
    };
    const report = validate(next);
    const problems = [...parsed.problems, ...report.errors.map(problemText)];
    if (attempt === 1) reasoning.push(...answer.reasoning.map((s) => `${modelId}: ${s}`));
    if (!problems.length) {
      layoutAdded(def, next);
      const diff = diffDefinitions(def, next);
      reasoning.push(`Answer ${attempt}: checked with the engine's validator: valid.`);
      const changes = describeDiff(def, next, diff);
      return {
        definition: next,
        changes,
        unresolved: changes.length ? [] : [`${modelId} made no change for "${request}"`],
        validation: report,
        diff,
        attempts: attempt,
        usage,
        reasoning,
      };
    }
    reasoning.push(
      `Answer ${attempt}: the validator found ${problems.length} problem${problems.length > 1 ? 's' : ''} (${problems.join('; ')})` +
        `${attempt < MAX_ATTEMPTS ? '; asked the model to correct them' : ''}.`,
    );
    messages.push({ role: 'assistant', content: JSON.stringify(answer) }, { role: 'user', content: repairPrompt(problems) });
  }
  reasoning.push(`After ${MAX_ATTEMPTS} answers the model's change was still not valid: the rule-based planner's edit is shown instead.`);
  return { ...offline, attempts: MAX_ATTEMPTS, usage, reasoning };
}
