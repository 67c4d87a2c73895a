import { stepCountIs, streamText, type LanguageModelUsage } from 'ai';
import { and, eq, sql } from 'drizzle-orm';
import { getLanguageModel, listLanguageModels } from '@/server/ai/models';
import { conversations, messages, type AgentConfig, type ReasoningStep } from '@/server/db/schema';
import { jsonText } from '@/server/db/json';
import { AppError } from '@/server/errors';
import { errorForLog, logger } from '@/server/logger';
import type { AgentEvent } from '@/shared/agent-events';
import type { ServiceContext } from '../context';
import { buildToolSet } from '../tools/toolset';
import { configOf } from './agent-views';
import { findAgentRow } from './find-agent';
import { conversationMessages, findConversation } from './conversations';
import { EventChannel } from './event-channel';
import { estimateTokens, historyMessages } from './history';
import { recordModelCall } from './model-calls';
import { versionConfig } from './versions';

/** The spec's SSE events (part 6), and `error` before the stream closes when a turn fails mid-way. */
export type TurnEvent = AgentEvent;

export interface TurnOptions {
  message: string;
  /** Values for `{{field}}` placeholders of the prompt template besides `{{input}}` (the message). */
  values?: Record<string, unknown>;
  conversationId?: string;
  version?: number;
  source: 'chat' | 'invoke' | 'pipeline';
  /** Invocations (public, pipelines) run deployed agents only; the playground runs any active one. */
  requireDeployed?: boolean;
  /** A pipeline's test run: tools do not write (pipelines run in test mode, HTTP tools other than GET are not sent). */
  testMode?: boolean;
}

export interface TurnResult {
  conversation_id: string;
  message_id: string;
  status: 'complete' | 'failed';
  response: string;
  reasoning_steps: ReasoningStep[];
  usage: { model: string; input_tokens: number; output_tokens: number; total_tokens: number; latency_ms: number };
  error?: { code: string; message: string };
}

export interface Turn {
  conversationId: string;
  events: AsyncIterable<TurnEvent>;
  /** Settles once the answer is saved, whether or not anyone read the events. */
  result: Promise<TurnResult>;
}

/** At most this many model steps per turn (each tool round trip is one). */
const MAX_STEPS = 5;
const TURN_TIME_LIMIT_MS = 120_000;

function fillPrompt(template: string, message: string, values: Record<string, unknown> = {}): string {
  return template.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (_m, path: string) => {
    if (path === 'input') return message;
    const v = path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), values);
    return v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);
  });
}

function failureOf(e: unknown): { code: string; message: string; status: number } {
  if (e instanceof AppError) return { code: e.code, message: e.message, status: e.status };
  const name = (e as Error)?.name ?? '';
  if (name === 'TimeoutError' || name === 'AbortError')
    return { code: 'AGENT_TIMEOUT', message: `The agent did not finish within ${TURN_TIME_LIMIT_MS / 1000} s.`, status: 500 };
  // provider errors carry the provider's message (never a key)
  return { code: 'LLM_FAILED', message: `The language model call failed: ${String((e as Error)?.message ?? e).slice(0, 500)}`, status: 500 };
}

async function openConversation(ctx: ServiceContext, agentId: string, opts: TurnOptions): Promise<{ row: typeof conversations.$inferSelect; fresh: boolean }> {
  if (opts.conversationId) return { row: await findConversation(ctx, agentId, opts.conversationId), fresh: false };
  const [row] = await ctx.db
    .insert(conversations)
    .values({
      orgId: ctx.principal.orgId,
      agentId,
      title: opts.message
        .replace(/\s+/g, ' ')
        .replace(/\u0000/g, '\ufffd')
        .trim()
        .slice(0, 80),
      source: opts.source,
      createdBy: ctx.principal.userId ?? ctx.principal.keyId ?? null,
    })
    .returning();
  return { row: row!, fresh: true };
}

/** The next message of the conversation (a trigger moves the conversation's updated_at to it); two writers at once give 409 rather than interleaving. */
async function addMessage(ctx: ServiceContext, conversationId: string, values: Omit<typeof messages.$inferInsert, 'conversationId' | 'seq'>) {
  try {
    const [row] = await ctx.db
      .insert(messages)
      .values({ ...values, conversationId, seq: sql`(select coalesce(max(seq), 0) + 1 from messages where conversation_id = ${conversationId})` })
      .returning();
    return row!;
  } catch (e) {
    if (((e as { cause?: { code?: string } }).cause ?? (e as { code?: string }))?.code === '23505') {
      throw new AppError('CONVERSATION_BUSY', `Conversation ${conversationId} is answering another message: send this one when it is done.`);
    }
    throw e;
  }
}

/**
 * Starts one turn of an agent: checks (agent, status, model, conversation) happen before it returns, so they
 * answer as ordinary errors; then the model runs with the agent's tools, its events go to `events` as they
 * happen, and the answer (with its thinking and tool calls) is saved whether or not anyone reads the events.
 */
export async function startTurn(ctx: ServiceContext, agentId: string, opts: TurnOptions): Promise<Turn> {
  const row = await findAgentRow(ctx, agentId);
  if (row.status === 'inactive') throw new AppError('AGENT_INACTIVE', `Agent ${agentId} is inactive: make it active (PUT is_active: true) to chat with it.`);
  if (opts.requireDeployed && row.status !== 'deployed') throw new AppError('AGENT_NOT_DEPLOYED', `Agent ${agentId} is not deployed: deploy it to invoke it.`);
  const config: AgentConfig = opts.version ? await versionConfig(ctx, row, opts.version) : configOf(row);
  const modelId = config.model_config.model;
  const model = getLanguageModel(modelId);
  const { row: conversation, fresh } = await openConversation(ctx, row.id, opts);
  const prompt = fillPrompt(config.prompt_template, opts.message, opts.values);
  const window = listLanguageModels().find((m) => m.id === modelId)?.context_window ?? 8192;
  const budget = window - config.model_config.max_tokens - estimateTokens(config.instructions) - estimateTokens(prompt);
  const history = fresh ? [] : historyMessages(await conversationMessages(ctx, conversation.id), budget);
  // an invocation's input_data may hold a NUL, which a text column refuses: stored as U+FFFD
  await addMessage(ctx, conversation.id, { role: 'user', content: opts.message.replace(/\u0000/g, '\ufffd'), agentVersion: opts.version ?? null });

  const channel = new EventChannel<TurnEvent>();
  const started = performance.now();
  const signal = AbortSignal.timeout(TURN_TIME_LIMIT_MS);
  const result = (async (): Promise<TurnResult> => {
    const steps: ReasoningStep[] = [];
    const calls = new Map<string, { tool: string; params: unknown }>();
    let text = '';
    let thought = '';
    let usage: LanguageModelUsage | undefined;
    let failure: ReturnType<typeof failureOf> | undefined;
    try {
      if (prompt.length > 0 && budget < 0) throw new AppError('VALIDATION_FAILED', `The message is too long for ${modelId} (context window ${window} tokens).`);
      const tools = await buildToolSet(ctx, config.tools, signal, opts.testMode ?? false);
      const run = streamText({
        model,
        ...(config.instructions ? { instructions: config.instructions } : {}),
        messages: [...history, { role: 'user', content: prompt }],
        ...(Object.keys(tools).length ? { tools, stopWhen: stepCountIs(MAX_STEPS) } : {}),
        temperature: config.model_config.temperature,
        maxOutputTokens: config.model_config.max_tokens,
        abortSignal: signal,
        maxRetries: 1,
      });
      for await (const part of run.stream) {
        switch (part.type) {
          case 'reasoning-delta':
            thought += part.text;
            break;
          case 'reasoning-end':
            if (thought.trim()) {
              steps.push({ type: 'thinking', content: thought.trim() });
              channel.push({ event: 'thinking', data: { content: thought.trim() } });
            }
            thought = '';
            break;
          case 'tool-call':
            calls.set(part.toolCallId, { tool: part.toolName, params: part.input });
            channel.push({ event: 'tool_call', data: { tool: part.toolName, params: part.input } });
            break;
          case 'tool-result':
          case 'tool-error': {
            const output =
              part.type === 'tool-result' ? part.output : { error: { code: 'TOOL_FAILED', message: String((part.error as Error)?.message ?? part.error) } };
            const call = calls.get(part.toolCallId) ?? { tool: part.toolName, params: part.input };
            steps.push({ type: 'tool_call', tool: call.tool, params: call.params, result: output });
            channel.push({ event: 'tool_result', data: { result: output } });
            break;
          }
          case 'text-delta':
            text += part.text;
            channel.push({ event: 'message', data: { content: part.text } });
            break;
          case 'finish':
            usage = part.totalUsage;
            break;
          case 'error':
            throw part.error;
        }
      }
    } catch (e) {
      failure = failureOf(e);
      if (failure.code === 'LLM_FAILED') logger.warn('agent turn failed', { agent: row.id, error: errorForLog(e) });
    }
    const latency = performance.now() - started;
    const saved = await addMessage(ctx, conversation.id, {
      role: 'assistant',
      // what a model or a tool answers is stored whatever it holds (NUL and lone surrogates as U+FFFD)
      content: text.replace(/\u0000/g, '\ufffd'),
      steps: JSON.parse(jsonText(steps)) as ReasoningStep[],
      status: failure ? 'failed' : 'complete',
      error: failure ? { code: failure.code, message: failure.message } : null,
      model: modelId,
      agentVersion: opts.version ?? null,
      inputTokens: usage?.inputTokens ?? 0,
      outputTokens: usage?.outputTokens ?? 0,
      latencyMs: Math.round(latency),
    });
    // the answer is saved: the reader may go; the usage record follows
    channel.push(failure ? { event: 'error', data: { error: failure } } : { event: 'done', data: {} });
    channel.end();
    await recordModelCall(ctx, {
      source: opts.source,
      model: modelId,
      agentId: row.id,
      conversationId: conversation.id,
      usage,
      latencyMs: latency,
      toolCalls: calls.size,
      errorCode: failure?.code,
    });
    const input = usage?.inputTokens ?? 0;
    const output = usage?.outputTokens ?? 0;
    return {
      conversation_id: conversation.id,
      message_id: saved.id,
      status: failure ? 'failed' : 'complete',
      response: text,
      reasoning_steps: steps,
      usage: {
        model: modelId,
        input_tokens: input,
        output_tokens: output,
        total_tokens: usage?.totalTokens ?? input + output,
        latency_ms: Math.round(latency),
      },
      ...(failure ? { error: { code: failure.code, message: failure.message } } : {}),
    };
  })();
  // a turn nobody awaits (its reader went away) must not become an unhandled rejection
  result.catch((e: unknown) => {
    logger.error('agent turn could not be saved', { agent: row.id, error: errorForLog(e) });
    channel.push({ event: 'error', data: { error: { code: 'INTERNAL', message: 'Internal server error.', status: 500 } } });
    channel.end();
  });
  return { conversationId: conversation.id, events: channel, result };
}
