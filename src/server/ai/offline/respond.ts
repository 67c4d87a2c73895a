import type { JSONSchema7, LanguageModelV4CallOptions, LanguageModelV4FunctionTool, LanguageModelV4Message } from '@ai-sdk/provider';
import { extractClinical } from './extract';
import { fillSchema } from './schema-fill';
import { summarize } from './summarize';
import { OFFLINE_NOTE } from './text';
import { chooseTool, toolArguments } from './tools';

/** What the offline model answers: text, or one tool call. */
export type Answer = ({ kind: 'text'; text: string; json: boolean } | { kind: 'tool-call'; toolName: string; input: string }) & {
  /** How the rules reached the answer, streamed as the model's reasoning. */
  reasoning: string;
};

function textOf(m: LanguageModelV4Message): string {
  if (m.role === 'system') return m.content;
  return m.content
    .map((p) => (p.type === 'text' ? p.text : ''))
    .filter(Boolean)
    .join('\n');
}

function toolResults(prompt: LanguageModelV4Message[]) {
  const last = prompt.at(-1);
  if (last?.role !== 'tool') return [];
  return last.content.flatMap((p) => (p.type === 'tool-result' ? [{ name: p.toolName, output: p.output }] : []));
}

const MAX_LINES = 40;

/** A JSON value as `- path: value` lines a person can read (arrays of plain values joined; at most 40 lines). */
function readable(value: unknown): string {
  if (value === null || typeof value !== 'object') return String(value);
  const lines: string[] = [];
  const walk = (v: unknown, path: string) => {
    if (lines.length > MAX_LINES) return;
    if (Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object')) lines.push(`- ${path}: ${v.length ? v.join(', ') : '(none)'}`);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, path ? `${path} ${Array.isArray(v) ? Number(k) + 1 : k}` : k);
    else if (v !== undefined && v !== '') lines.push(`- ${path}: ${String(v)}`);
  };
  walk(value, '');
  return `\n${lines.slice(0, MAX_LINES).join('\n')}${lines.length > MAX_LINES ? '\n- …' : ''}`;
}

/** A one-line value after a space; lines as they are. */
const spaced = (text: string) => (text.startsWith('\n') ? text : ` ${text}`);

function describeOutput(o: { type: string; value?: unknown; reason?: string }) {
  if (o.type === 'text' || o.type === 'error-text') return String(o.value);
  if (o.type === 'json' || o.type === 'error-json') return readable(o.value);
  return o.reason ?? o.type;
}

/** A free-text answer for the request, labelled as rule-based. */
function freeText(instructions: string, text: string, maxSentences: number): string {
  const ex = extractClinical(text);
  const wantsList = /\b(extract|list|medication|condition|diagnos)/i.test(instructions) && !/\bsummar/i.test(instructions);
  if (wantsList) {
    const lines = [
      ...ex.medications.map((m) => `- Medication: ${[m.name, m.dose, m.route, m.frequency].filter(Boolean).join(' ')}`),
      ...ex.conditions.map((c) => `- Condition: ${c.name}${c.negated ? ' (negated)' : ''}`),
      ...ex.observations.map((o) => `- Observation: ${o.name} ${o.value}${o.unit ? ` ${o.unit}` : ''}`),
      ...ex.codes.map((c) => `- Code: ${c.system} ${c.code}`),
      ...ex.dates.map((d) => `- Date: ${d}`),
    ];
    return `${OFFLINE_NOTE}\n${lines.length ? lines.join('\n') : 'Nothing recognised.'}`;
  }
  const summary = summarize(text, { maxSentences });
  return `${OFFLINE_NOTE} ${summary || 'No text to summarize.'}`;
}

export function respond(o: LanguageModelV4CallOptions): Answer {
  const system = o.prompt
    .filter((m) => m.role === 'system')
    .map(textOf)
    .join('\n');
  const users = o.prompt.filter((m) => m.role === 'user');
  const lastUser = users.length ? textOf(users.at(-1)!) : '';
  const results = toolResults(o.prompt);
  if (results.length) {
    return {
      kind: 'text',
      json: false,
      reasoning: `Reporting what ${results.map((r) => r.name).join(', ')} returned.`,
      text: `${OFFLINE_NOTE} ${results.map((r) => `${r.name} returned:${spaced(describeOutput(r.output))}`).join('\n')}`,
    };
  }
  const tools = (o.tools ?? []).filter((t): t is LanguageModelV4FunctionTool => t.type === 'function');
  const choice = o.toolChoice;
  if (tools.length && choice?.type !== 'none') {
    const offered = choice?.type === 'tool' ? tools.filter((t) => t.name === choice.toolName) : tools;
    const tool = chooseTool(lastUser, offered) ?? (choice?.type === 'required' || choice?.type === 'tool' ? offered[0] : undefined);
    if (tool) {
      const named = lastUser.toLowerCase().includes(tool.name.toLowerCase());
      const why = named
        ? `The message names the tool ${tool.name}`
        : choice?.type === 'tool' || choice?.type === 'required'
          ? `A tool call is required; ${tool.name} is offered`
          : `The message shares the most words with the tool ${tool.name}'s name and description`;
      return {
        kind: 'tool-call',
        toolName: tool.name,
        input: JSON.stringify(toolArguments(lastUser, tool)),
        reasoning: `${why}: calling it with arguments read from the message.`,
      };
    }
  }
  // "Summarize this clinical text:\n\n<text>": the lead-in line is an instruction, what follows is the content
  const leadIn = /^([^\n]{1,200}:)[ \t]*\r?\n[ \t]*\r?\n/.exec(lastUser);
  const request = leadIn ? `${system}\n${leadIn[1]}` : system;
  const content = leadIn ? lastUser.slice(leadIn[0].length) : lastUser;
  const maxSentences = Number(system.match(/(\d+)\s+sentences?/i)?.[1] ?? 3);
  if (o.responseFormat?.type === 'json') {
    const facts = { text: content, extraction: extractClinical(content), summary: summarize(content, { maxSentences }) };
    const schema = (o.responseFormat.schema ?? {
      type: 'object',
      properties: {
        summary: {},
        medications: { type: 'array', items: { type: 'object', properties: { name: {}, dose: {}, route: {}, frequency: {} } } },
        conditions: { type: 'array', items: { type: 'object', properties: { name: {}, negated: { type: 'boolean' } } } },
        dates: { type: 'array', items: { type: 'string' } },
        codes: { type: 'array', items: { type: 'object', properties: { system: {}, code: {} } } },
      },
    }) as JSONSchema7;
    return {
      kind: 'text',
      json: true,
      reasoning: 'Filling the requested JSON schema from the medications, conditions, dates and codes found by pattern.',
      text: JSON.stringify(fillSchema(schema, facts)),
    };
  }
  const listing = /\b(extract|list|medication|condition|diagnos)/i.test(request) && !/\bsummar/i.test(request);
  const reasoning = listing
    ? 'The instructions ask for a list: extracting medications, conditions, observations, codes and dates by pattern.'
    : `Summarizing by sentence scoring: keeping up to ${maxSentences} sentences with the most clinical content.`;
  return { kind: 'text', json: false, reasoning, text: freeText(request, content, maxSentences) };
}
