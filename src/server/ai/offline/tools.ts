import type { JSONSchema7, LanguageModelV4FunctionTool } from '@ai-sdk/provider';
import { extractClinical } from './extract';
import { fillSchema } from './schema-fill';
import { summarize } from './summarize';
import { words } from './text';

const spoken = (name: string) =>
  name
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
const STOP = new Set('the a an and or of to in on for with get set from by is are this that what which'.split(' '));

/**
 * The offered tool the message asks for: one it names (`get_labs` or "get labs"), else the one whose name and
 * description share most words with the message (at least two), else none.
 */
export function chooseTool(message: string, tools: LanguageModelV4FunctionTool[]): LanguageModelV4FunctionTool | undefined {
  const m = message.toLowerCase();
  const named = tools.find((t) => m.includes(t.name.toLowerCase()) || m.includes(spoken(t.name)));
  if (named) return named;
  const msgWords = new Set(words(m.replace(/[^a-z0-9 ]/g, ' ')).filter((w) => w.length > 2 && !STOP.has(w)));
  let best: { tool?: LanguageModelV4FunctionTool; score: number } = { score: 1 };
  for (const t of tools) {
    const toolWords = new Set(
      words(`${spoken(t.name)} ${t.description ?? ''}`.toLowerCase().replace(/[^a-z0-9 ]/g, ' ')).filter((w) => w.length > 2 && !STOP.has(w)),
    );
    const score = [...toolWords].filter((w) => msgWords.has(w) || msgWords.has(w.replace(/s$/, ''))).length;
    if (score > best.score) best = { tool: t, score };
  }
  return best.tool;
}

/** Arguments for `tool` from the message: ids, numbers, quoted strings and extracted facts, by field name. */
export function toolArguments(message: string, tool: LanguageModelV4FunctionTool): Record<string, unknown> {
  const schema = tool.inputSchema as JSONSchema7;
  const quoted = message.match(/["“']([^"”']+)["”']/)?.[1];
  const id = message.match(/\b(?:patient|id|mrn)[\s:#]*([A-Za-z0-9-]{2,})\b/i)?.[1];
  const facts = { text: message, extraction: extractClinical(message), summary: summarize(message, { maxSentences: 2 }) };
  // a tool that takes a code (terminology lookup) gets the first code extracted, with its system, not the sentence
  // (no code in the message: the first term it extracted, a condition or medication, never the whole message)
  const { codes, conditions, medications } = facts.extraction;
  const term = conditions.find((c) => !c.negated)?.name ?? medications[0]?.name;
  const code = 'code' in (schema.properties ?? {}) ? (codes[0] ?? (term ? { system: '', code: term, text: term } : undefined)) : undefined;
  const args = fillSchema(schema, facts, '', code ? { ...code } : undefined) as Record<string, unknown>;
  for (const [k, d] of Object.entries(schema.properties ?? {})) {
    const s = typeof d === 'object' ? d : {};
    if (s.type !== 'string' || s.enum || (code && (k === 'code' || k === 'system'))) continue;
    if (/id$|identifier|mrn|patient/i.test(k) && id) args[k] = id;
    else if (/query|text|input|note|content|question|message/i.test(k)) args[k] = quoted ?? message;
    else if (quoted) args[k] = quoted;
  }
  return args;
}
