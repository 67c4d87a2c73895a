import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { respond } from './respond';
import { countTokens } from './text';

function usage(o: LanguageModelV4CallOptions, output: string): LanguageModelV4Usage {
  const input = o.prompt.reduce((n, m) => n + countTokens(typeof m.content === 'string' ? m.content : JSON.stringify(m.content)), 0);
  const out = countTokens(output);
  return { inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: out, text: out, reasoning: 0 } };
}

/** Cut free text to maxOutputTokens words (JSON is never cut: it must parse). */
function limit(text: string, json: boolean, max?: number) {
  if (json || !max) return { text, cut: false };
  const pieces = text.match(/\S+\s*/g) ?? [];
  return pieces.length > max ? { text: pieces.slice(0, max).join('').trimEnd(), cut: true } : { text, cut: false };
}

let calls = 0;
const nextId = (p: string) => `${p}-${++calls}`;

/**
 * `clinflow/offline`: a deterministic, rule-based LanguageModelV4 that never touches the network. It summarises
 * by sentence scoring, extracts medications, conditions, observations, dates and codes, fills a JSON schema from
 * what it extracted, calls an offered tool the message names or needs, and says in free text what it is.
 */
export function offlineModel(): LanguageModelV4 {
  const answer = (o: LanguageModelV4CallOptions) => {
    const a = respond(o);
    if (a.kind === 'tool-call') return { a, text: '', cut: false };
    return { a, ...limit(a.text, a.json, o.maxOutputTokens) };
  };
  return {
    specificationVersion: 'v4',
    provider: 'clinflow',
    modelId: 'offline',
    supportedUrls: {},
    async doGenerate(o): Promise<LanguageModelV4GenerateResult> {
      const { a, text, cut } = answer(o);
      if (a.kind === 'tool-call') {
        return {
          content: [
            { type: 'reasoning', text: a.reasoning },
            { type: 'tool-call', toolCallId: nextId('call'), toolName: a.toolName, input: a.input },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage: usage(o, a.input),
          warnings: [],
        };
      }
      return {
        content: [
          { type: 'reasoning', text: a.reasoning },
          { type: 'text', text },
        ],
        finishReason: cut ? { unified: 'length', raw: 'length' } : { unified: 'stop', raw: 'stop' },
        usage: usage(o, text),
        warnings: [],
      };
    },
    async doStream(o) {
      const { a, text, cut } = answer(o);
      const parts: LanguageModelV4StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'response-metadata', modelId: 'offline', timestamp: new Date() },
      ];
      const thought = nextId('reasoning');
      parts.push(
        { type: 'reasoning-start', id: thought },
        { type: 'reasoning-delta', id: thought, delta: a.reasoning },
        { type: 'reasoning-end', id: thought },
      );
      if (a.kind === 'tool-call') {
        const id = nextId('call');
        parts.push(
          { type: 'tool-input-start', id, toolName: a.toolName },
          { type: 'tool-input-delta', id, delta: a.input },
          { type: 'tool-input-end', id },
          { type: 'tool-call', toolCallId: id, toolName: a.toolName, input: a.input },
        );
        parts.push({ type: 'finish', usage: usage(o, a.input), finishReason: { unified: 'tool-calls', raw: 'tool_calls' } });
      } else {
        const id = nextId('text');
        parts.push({ type: 'text-start', id });
        for (const delta of text.match(/\s*\S+/g) ?? []) parts.push({ type: 'text-delta', id, delta });
        parts.push(
          { type: 'text-end', id },
          { type: 'finish', usage: usage(o, text), finishReason: cut ? { unified: 'length', raw: 'length' } : { unified: 'stop', raw: 'stop' } },
        );
      }
      let i = 0;
      // One part per pull, so a reader sees the deltas arrive one by one as it reads.
      const stream = new ReadableStream<LanguageModelV4StreamPart>(
        {
          pull(controller) {
            if (i < parts.length) controller.enqueue(parts[i++]!);
            else controller.close();
          },
        },
        { highWaterMark: 0 },
      );
      return { stream };
    },
  };
}
