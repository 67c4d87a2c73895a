import { AppError } from '@/server/errors';
import { getLanguageModel } from '@/server/ai/models';
import type { CopilotEvent, CopilotReport as Report } from '@/shared/copilot-events';
import type { ServiceContext } from '../context';
import { EventChannel } from '../agents/event-channel';
import { findPipelineRow } from '../pipelines/find';
import { analyze } from './copilot';
import { generatePipeline } from './generate-pipeline';
import { modifyForCopilot } from './modify';
import { explainFlow, explainValidity } from '@/server/copilot/edit/explain';
import { readEdits } from '@/server/copilot/edit/intent';
import { PipelineDefinition } from '@/shared/pipeline';

export type { CopilotEvent };

export interface CopilotChatInput {
  message: string;
  /** The pipeline the message is about: saved (pipeline_id), or as the editor shows it (definition, unsaved edits and all). */
  context?: { pipeline_id?: string; definition?: unknown };
  sample_input?: unknown;
  /** The language model to design a new pipeline with (default COPILOT_MODEL). */
  model?: string;
}

const QUESTION = /\?\s*$|^(what|why|how|is|does|can|which|explain|describe|walk me|tell me)\b/i;
const EXPLAIN = /\bwhat does\b|\bexplain\b|\bwalk me through\b|\bhow does\b|\bdescribe\b|\bnode by node\b|\bstep by step\b|\bwhat happens\b/i;
const WHY_VALID = /\bwhy\b[^?]*\bvalid\b|\bwhy\b[^?]*\b(pass|passes|accepted|ok)\b/i;
const ASKS_REVIEW = /\b(check|validate|review|analy[sz]e|what'?s wrong|wrong|why|problems?|issues?|is it (ok|valid|safe))\b/i;

function summary(valid: boolean, errors: unknown[], warnings: unknown[]): string {
  if (!valid) return `It is not valid yet: ${errors.length} error${errors.length === 1 ? '' : 's'} to fix.`;
  return warnings.length ? `It is valid, with ${warnings.length} warning${warnings.length === 1 ? '' : 's'} to consider.` : 'It is valid.';
}

/** One copilot turn as events: a new pipeline from a description, or, with a pipeline in context, a change to it or a review of it. */
async function* turn(ctx: ServiceContext, input: CopilotChatInput): AsyncGenerator<CopilotEvent> {
  const pipelineId = input.context?.pipeline_id;
  const definition = input.context?.definition;
  // the definition given (the editor's canvas) is the one meant, even when the pipeline's id comes with it
  const about = definition !== undefined ? { definition } : pipelineId ? { pipeline_id: pipelineId } : undefined;
  const which = definition !== undefined ? 'the pipeline as given (unsaved edits included)' : `pipeline ${pipelineId}`;
  const question = QUESTION.test(input.message.trim());
  const edits = readEdits(input.message).filter((o) => o.kind !== 'unknown');
  if (about && (WHY_VALID.test(input.message) || (EXPLAIN.test(input.message) && (question || !edits.length)))) {
    const def = PipelineDefinition.safeParse(definition ?? (await findPipelineRow(ctx, pipelineId!)).definition);
    if (!def.success)
      throw new AppError(
        'VALIDATION_FAILED',
        'The pipeline in context is not a definition {nodes, connections}.',
        def.error.issues.map((i) => ({ path: `context.definition.${i.path.join('.')}`, message: i.message })),
      );
    const r = await analyze(ctx, about);
    if (WHY_VALID.test(input.message)) {
      yield { event: 'thinking', data: { content: `Explaining the validator's verdict on ${which}, check by check.` } };
      yield { event: 'validation', data: { valid: r.valid, errors: r.errors, warnings: r.warnings } };
      yield { event: 'message', data: { content: explainValidity(def.data, r) } };
      return;
    }
    yield { event: 'thinking', data: { content: `Reading ${which} node by node, from the node catalog's descriptions and the port types.` } };
    yield { event: 'message', data: { content: `${explainFlow(def.data)}\n\n${summary(r.valid, r.errors, r.warnings)}` } };
    return;
  }
  if (about && ASKS_REVIEW.test(input.message) && (question || !edits.length)) {
    yield { event: 'thinking', data: { content: `Reviewing ${which} with the validator and the copilot's checks.` } };
    const r = await analyze(ctx, about);
    yield { event: 'validation', data: { valid: r.valid, errors: r.errors, warnings: r.warnings } };
    const lines = [...r.errors, ...r.warnings].map((f) => `- ${f.node_id ? `${f.node_id}: ` : ''}${f.message}`);
    yield { event: 'message', data: { content: [summary(r.valid, r.errors, r.warnings), ...lines].join('\n') } };
    return;
  }
  if (about) {
    yield {
      event: 'thinking',
      data: { content: `Changing ${which} as asked (not saved: apply it with POST /api/copilot/modify/pipeline, or in the editor).` },
    };
    const m = await modifyForCopilot(ctx, { ...about, request: input.message, model: input.model, sample_input: input.sample_input });
    for (const r of m.reasoning) yield { event: 'thinking', data: { content: r } };
    for (const c of m.changes) yield { event: 'thinking', data: { content: c } };
    yield { event: 'pipeline', data: m.definition };
    yield { event: 'validation', data: m.validation };
    if (m.dry_run) yield { event: 'dry_run', data: m.dry_run };
    const done = m.changes.map((c) => `- ${c}`);
    const left = m.unresolved.map((u) => `- not done: ${u}`);
    const head = m.changes.length
      ? [
          `${m.changes.length} change${m.changes.length === 1 ? '' : 's'} proposed (not`,
          `saved). ${summary(m.validation.valid, m.validation.errors, m.validation.warnings)}`,
        ].join(' ')
      : 'No change made.';
    yield { event: 'message', data: { content: [head, ...done, ...left].join('\n') } };
    return;
  }
  yield { event: 'thinking', data: { content: 'Designing a new pipeline from the description, over the node catalog.' } };
  const g = await generatePipeline(ctx, { description: input.message, sample_input: input.sample_input, model: input.model });
  for (const step of g.reasoning) yield { event: 'thinking', data: { content: step } };
  yield { event: 'pipeline', data: g.pipeline };
  yield { event: 'validation', data: g.validation };
  if (g.dry_run) yield { event: 'dry_run', data: g.dry_run };
  const left = g.unresolved.map((u) => `- to finish: ${u}`);
  const ran = g.dry_run ? ` The dry run on the sample ${g.dry_run.status}.` : '';
  yield {
    event: 'message',
    data: {
      content: [
        `"${g.pipeline.name}": ${g.pipeline.nodes.length} nodes. ${summary(g.validation.valid, g.validation.errors, g.validation.warnings)}${ran}`,
        ...left,
      ].join('\n'),
    },
  };
}

/**
 * POST /api/copilot/chat with stream: true — the events of one turn, each sent as it is made. What can be checked first
 * (the pipeline in context) answers as an ordinary error.
 */
export async function copilotChatEvents(ctx: ServiceContext, input: CopilotChatInput): Promise<AsyncIterable<CopilotEvent>> {
  if (input.context?.pipeline_id) await findPipelineRow(ctx, input.context.pipeline_id);
  if (input.model) getLanguageModel(input.model); // an unavailable model is a 400 before the stream opens
  const channel = new EventChannel<CopilotEvent>();
  void (async () => {
    try {
      for await (const e of turn(ctx, input)) channel.push(e);
      channel.push({ event: 'done', data: {} });
    } catch (e) {
      const err = e instanceof AppError ? e : new AppError('INTERNAL', 'Internal server error.');
      channel.push({ event: 'error', data: { error: { code: err.code, message: err.message, status: err.status } } });
    }
    channel.end();
  })();
  return channel;
}

/** POST /api/copilot/chat with stream: false — the same turn, answered whole. */
export async function copilotChat(ctx: ServiceContext, input: CopilotChatInput) {
  const steps: string[] = [];
  let pipeline: Extract<CopilotEvent, { event: 'pipeline' }>['data'] | null = null;
  let validation: Report | null = null;
  let dryRun: unknown = null;
  const answer: string[] = [];
  for await (const e of turn(ctx, input)) {
    if (e.event === 'thinking') steps.push(e.data.content);
    else if (e.event === 'pipeline') pipeline = e.data;
    else if (e.event === 'validation') validation = e.data;
    else if (e.event === 'dry_run') dryRun = e.data;
    else if (e.event === 'message') answer.push(e.data.content);
  }
  return {
    response: answer.join('\n'),
    reasoning_steps: steps.map((content) => ({ type: 'thinking' as const, content })),
    pipeline,
    validation,
    dry_run: dryRun,
  };
}
