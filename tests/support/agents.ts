import { expect } from 'vitest';
import { trpc, type Org } from './accounts';
import type { Client } from './client';

/** One server-sent event as a client reads it; `read` is the body read (0-based, counting reads with data) that completed it. */
export interface SseEvent {
  event: string;
  data: any;
  read: number;
}

const BLOCK = /^event: ([a-z_]+)\ndata: ([^\n]*)\n\n/;

/**
 * Reads a text/event-stream body as it arrives, one `reader.read()` at a time. Stops (cancelling the body) after
 * the first event `stop` accepts; otherwise reads to the end and fails on anything that is not a whole event.
 * `onEvent` sees each event as soon as it is read.
 */
export async function readEvents(body: ReadableStream<Uint8Array>, stop?: (e: SseEvent) => boolean, onEvent?: (e: SseEvent) => void) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const events: SseEvent[] = [];
  let text = '';
  let rest = '';
  let reads = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!value?.length) continue;
    const chunk = decoder.decode(value, { stream: true });
    text += chunk;
    rest += chunk;
    for (let m = BLOCK.exec(rest); m; m = BLOCK.exec(rest)) {
      const e = { event: m[1]!, data: JSON.parse(m[2]!), read: reads };
      events.push(e);
      onEvent?.(e);
      rest = rest.slice(m[0].length);
      if (stop?.(e)) {
        await reader.cancel();
        return { events, reads: reads + 1, text };
      }
    }
    reads++;
  }
  expect(rest, 'the stream ended inside an event, or with something that is not `event: NAME\\ndata: JSON\\n\\n`').toBe('');
  return { events, reads, text };
}

/** The exact text of an event as the spec writes it. */
export const eventText = (e: { event: string; data: unknown }) => `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;

/** Polls `f` until it gives a value (or the deadline passes). */
export async function waitFor<T>(what: string, f: () => Promise<T | undefined>, seconds = 30): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    const v = await f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A raw POST with a key (or none), for streams and for requests the JSON client cannot make. */
export function postRaw(baseUrl: string, org: Org | undefined, path: string, body: unknown, init: RequestInit = {}): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(org ? { authorization: `Bearer ${org.key}`, 'x-organization-id': org.id } : {}) },
    body: JSON.stringify(body),
    ...init,
  });
}

/** A new API key of the signed-in user's organization with these scopes (Settings → API keys). */
export async function newKey(baseUrl: string, org: Org & { cookie: string }, scopes: string[]): Promise<Org> {
  const created = await trpc<{ key: string }>(baseUrl, org.cookie, 'keys.create', { name: `key ${scopes.join(' ')}`, scopes });
  return { id: org.id, key: created.key };
}

/** The id of a built-in agent template, by name. */
export async function templateId(api: Client, name: string): Promise<string> {
  const r = await api.get('/api/agents?base_templates=true');
  expect(r.status).toBe(200);
  const t = r.body.agents.find((a: { name: string }) => a.name === name);
  expect(t, `template ${name}`).toBeDefined();
  expect(t.is_template).toBe(true);
  return t.id;
}

/**
 * in (manual-trigger, one text field) ──▶ out (pipeline-output under the same key): a pipeline that answers its input.
 */
export const echoDefinition = (field: string) => ({
  nodes: [
    { id: 'in', type: 'manual-trigger', config: { fields: { [field]: 'text' } } },
    { id: 'out', type: 'pipeline-output', config: { key: field } },
  ],
  connections: [{ id: 'c1', source: 'in', source_port: field, target: 'out', target_port: 'value' }],
});

/** A deployed echo pipeline and a custom tool that runs it, with input `{[field]: string}`. */
export async function echoTool(api: Client, name: string, field: string, description: string) {
  const pipeline = await api.post('/api/pipelines', { name: `${name} pipeline`, definition: echoDefinition(field) });
  expect(pipeline.status, pipeline.text).toBe(201);
  expect((await api.post(`/api/pipelines/${pipeline.body.id}/deploy`)).status).toBe(200);
  const tool = await api.post('/api/tools', {
    name,
    description,
    input_schema: { type: 'object', properties: { [field]: { type: 'string' } }, required: [field] },
    implementation: { type: 'pipeline', pipeline_id: pipeline.body.id },
  });
  expect(tool.status, tool.text).toBe(201);
  return { pipelineId: pipeline.body.id as string, toolId: tool.body.id as string };
}
