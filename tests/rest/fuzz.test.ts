import { beforeAll, describe, expect, inject, it } from 'vitest';
import { orgWithKey, type Org } from '../support/accounts';
import { newKey } from '../support/agents';

/**
 * Sends hostile inputs to every operation of the OpenAPI document (issue 14): path parameters that are not
 * UUIDs, unknown UUIDs, long and odd strings; query parameters of the wrong type; JSON bodies that are empty,
 * null, arrays, or hold a wrong value in each field of the operation's request schema. Every answer must be
 * below 500, an error must be exactly the spec's error shape with `status` equal to the HTTP status, and every
 * response carries the three X-RateLimit-* headers.
 *
 * The inputs are fixed lists (no randomness), so every run sends the same requests. Not sent: TRACE and `%ff`
 * in a path (known failures inside Next itself, out of scope), and NUL (`%00`) in paths. No operation is skipped.
 */

type Schema = Record<string, any>;
type Json = unknown;

interface Operation {
  method: string;
  path: string;
  op: Schema;
}

interface Case {
  what: string;
  url: string;
  body?: string;
}

const targets = inject('targets');
const documents = await Promise.all(targets.map(async (t) => (await fetch(`${t.url}/api/openapi.json`)).json() as Promise<Schema>));

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const operationsOf = (doc: Schema): Operation[] =>
  Object.entries(doc.paths as Record<string, Schema>).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );

const UNKNOWN_UUID = '7f3c2a10-0d1e-4b5a-9c8d-00000000f00d';
const HUGE = 'FUZZ_HUGE_INTEGER';
const deep = (n: number): Json => (n === 0 ? 1 : { a: deep(n - 1) });
const ODD = `'"; DROP TABLE pipelines; -- <script>alert(1)</script> \u202e\ufeff\u200b 😀 ../../etc/passwd {{x}} \${x} %s \\`;

/** Values put where a path parameter goes (URL-encoded): none is a valid id of this organization. */
const PATH_VALUES = [
  'not-a-uuid',
  UNKNOWN_UUID,
  UNKNOWN_UUID.toUpperCase(),
  `${UNKNOWN_UUID}x`,
  '-1',
  '0',
  '1.5',
  '99999999999999999999999999',
  'NaN',
  'x'.repeat(4000),
  ODD,
  'a/b',
  '\ud83d\ude00\u00e9\u4e2d',
];

/** Values put in each query parameter; an array means the parameter is repeated. */
const QUERY_VALUES: (string | string[])[] = [
  'abc',
  '',
  '-1',
  '0',
  '1.5',
  '99999999999999999999999999',
  '1e400',
  'NaN',
  'true',
  'x'.repeat(4000),
  ODD,
  ['1', '2'],
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '+275760-09-13T00:00:00Z',
  '2026-02-30T25:61:61Z',
];

/** Values put in each field of a request body, whatever its declared type. */
const FIELD_VALUES: Json[] = [
  null,
  true,
  -1,
  0,
  1.5,
  -1e308,
  HUGE,
  2 ** 64,
  '',
  'fuzz',
  'a\u0000b',
  'x\ud800y',
  '\udfff',
  'x'.repeat(10_000),
  ODD,
  UNKNOWN_UUID,
  {},
  { a: 'b', 'a\u0000': '\u0000', '\ud800': '\udc00x' },
  [],
  ['x', 1, null],
  deep(200),
  JSON.parse('{"__proto__": {"admin": true}, "constructor": {"prototype": {"admin": true}}}'),
];

/** Raw JSON bodies (or what claims to be JSON). */
const RAW_BODIES: [string, string][] = [
  ['empty body', ''],
  ['null', 'null'],
  ['[]', '[]'],
  ['[{}]', '[{}]'],
  ['a string', '"fuzz"'],
  ['a number', '0'],
  ['true', 'true'],
  ['{}', '{}'],
  ['object 200 deep', JSON.stringify(deep(200))],
  ['array 200 deep', `${'['.repeat(200)}${']'.repeat(200)}`],
  ['a huge number', '{"x": 1e400, "y": 123456789012345678901234567890123456789}'],
  ['NUL key', '{"\\u0000": 1}'],
  ['duplicate keys', '{"name": "a", "name": {"x": 1}}'],
];

/** Resolves a local $ref and takes the first branch of a union, as a client reading the document would. */
function resolve(doc: Schema, s: Schema | undefined): Schema {
  let schema = s ?? {};
  for (let i = 0; i < 20; i++) {
    if (schema.$ref)
      schema =
        (schema.$ref as string)
          .slice(2)
          .split('/')
          .reduce((o: Schema, k: string) => o?.[k], doc) ?? {};
    else if (schema.anyOf || schema.oneOf) schema = (schema.anyOf ?? schema.oneOf).find((b: Schema) => b.type !== 'null') ?? {};
    else if (schema.allOf) schema = Object.assign({}, ...schema.allOf.map((b: Schema) => resolve(doc, b)));
    else return schema;
  }
  return schema;
}

const typeOf = (s: Schema): string | undefined =>
  (Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type) ?? (s.properties ? 'object' : undefined);

/** A plausible value of a schema (required fields only); ids are unknown UUIDs, so nothing existing is touched. */
function sample(doc: Schema, s: Schema | undefined, name = ''): Json {
  const schema = resolve(doc, s);
  if ('const' in schema) return schema.const;
  if (schema.enum) return schema.enum[0];
  switch (typeOf(schema)) {
    case 'object': {
      const out: Record<string, Json> = {};
      for (const key of schema.required ?? []) out[key] = sample(doc, schema.properties?.[key], key);
      return out;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sample(doc, schema.items));
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return false;
    case 'string':
      if (schema.format === 'date-time') return '2026-01-01T00:00:00Z';
      if (/uuid/i.test(`${schema.format} ${schema.description}`) || /(^|_)id$|[a-z]Id$|^cid$/.test(name)) return UNKNOWN_UUID;
      return 'fuzz';
    default:
      return 'fuzz';
  }
}

/** Every field of a request schema, nested ones included (an array's first item), with the schemas along its path. */
function fields(doc: Schema, s: Schema | undefined, depth = 0): { path: (string | number)[]; chain: Schema[] }[] {
  const schema = resolve(doc, s);
  if (depth >= 6) return [];
  const type = typeOf(schema);
  const out: { path: (string | number)[]; chain: Schema[] }[] = [];
  if (type === 'object') {
    // a map (`additionalProperties`) gets an entry of its own
    const props = (schema.properties ??
      (schema.additionalProperties !== false ? { fuzz: schema.additionalProperties === true ? {} : (schema.additionalProperties ?? {}) } : {})) as Record<
      string,
      Schema
    >;
    for (const [key, child] of Object.entries(props)) {
      out.push({ path: [key], chain: [child] });
      for (const f of fields(doc, child, depth + 1)) out.push({ path: [key, ...f.path], chain: [child, ...f.chain] });
    }
  } else if (type === 'array' && schema.items) {
    for (const f of fields(doc, schema.items, depth + 1)) out.push({ path: [0, ...f.path], chain: [schema.items, ...f.chain] });
  }
  return out;
}

/** `base` with `value` at `path`, the containers along it filled with samples of their schemas. */
function withField(doc: Schema, base: Json, path: (string | number)[], chain: Schema[], value: Json): Json {
  const root = structuredClone(base) as Record<string | number, Json>;
  let node: Record<string | number, Json> = root;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!;
    const next = node[key];
    if (next === null || typeof next !== 'object') {
      const nextSchema = resolve(doc, chain[i]);
      node[key] = typeOf(nextSchema) === 'array' ? [] : ((sample(doc, nextSchema) as Json) ?? {});
      if (typeof path[i + 1] === 'number' && (node[key] as Json[]).length === 0) (node[key] as Json[]).push(sample(doc, nextSchema.items));
    } else if (Array.isArray(next) && next.length === 0) {
      next.push(sample(doc, resolve(doc, chain[i]).items));
    }
    node = node[key] as Record<string | number, Json>;
  }
  node[path[path.length - 1]!] = value;
  return root;
}

const encodeBody = (v: Json): string => JSON.stringify(v).replaceAll(`"${HUGE}"`, '123456789012345678901234567890123456789');
const describeValue = (v: Json): string => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 40)}… (${text.length} chars)` : text;
};

/** The requests sent to one operation, always the same. */
function casesOf(doc: Schema, { method, path, op }: Operation): Case[] {
  const params = ((op.parameters ?? []) as Schema[]).map((p) => resolve(doc, p));
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const bodySchema = op.requestBody?.content?.['application/json']?.schema as Schema | undefined;
  const takesBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
  const base = bodySchema ? sample(doc, bodySchema) : {};
  const baseBody = takesBody ? encodeBody(base) : undefined;

  const urlWith = (pathValues: Record<string, string> = {}, query = '') =>
    `/api${path.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (name in pathValues) return encodeURIComponent(pathValues[name]!);
      const p = pathParams.find((x) => x.name === name);
      return encodeURIComponent(String(sample(doc, p?.schema, name)));
    })}${query}`;

  const cases: Case[] = [{ what: 'plausible input', url: urlWith(), body: baseBody }];
  for (const p of pathParams) {
    for (const v of PATH_VALUES) cases.push({ what: `path ${p.name} = ${describeValue(v)}`, url: urlWith({ [p.name]: v }), body: baseBody });
  }
  for (const p of queryParams) {
    for (const v of QUERY_VALUES) {
      const query = (Array.isArray(v) ? v : [v]).map((x) => `${encodeURIComponent(p.name)}=${encodeURIComponent(x)}`).join('&');
      cases.push({ what: `query ${p.name} = ${describeValue(v)}`, url: urlWith({}, `?${query}`), body: baseBody });
    }
    cases.push({ what: `query ${p.name}[]`, url: urlWith({}, `?${encodeURIComponent(p.name)}[]=1&${encodeURIComponent(p.name)}[a]=2`), body: baseBody });
  }
  cases.push({ what: 'unknown query parameters', url: urlWith({}, `?unknown=1&limit=-5&offset=abc&__proto__=x`), body: baseBody });
  if (!takesBody) return cases;

  for (const [what, raw] of RAW_BODIES) cases.push({ what: `body ${what}`, url: urlWith(), body: raw });
  if (base && typeof base === 'object' && !Array.isArray(base)) {
    cases.push({ what: 'body with unknown fields', url: urlWith(), body: encodeBody({ ...base, unknown_field: ODD, nested: deep(200), $where: '1' }) });
  }
  for (const { path: fieldPath, chain } of fields(doc, bodySchema)) {
    for (const v of FIELD_VALUES) {
      cases.push({ what: `body ${fieldPath.join('.')} = ${describeValue(v)}`, url: urlWith(), body: encodeBody(withField(doc, base, fieldPath, chain, v)) });
    }
  }
  return cases;
}

/** Agent chat (60 a minute) and the copilot (30 a minute) are limited per key, so their requests are spread over keys. */
function limitOf(method: string, path: string): 'chat' | 'copilot' | undefined {
  if (method === 'POST' && /^\/(agents\/[^/]+\/chat|agents\/[^/]+\/conversations\/[^/]+\/messages|v1\/agents\/[^/]+\/invoke)$/.test(path)) return 'chat';
  return path.startsWith('/copilot/') ? 'copilot' : undefined;
}
const PER_KEY = { chat: 50, copilot: 25 };

/** What is wrong with a response, if anything. */
function problems(codes: string[], status: number, headers: Headers, text: string): string[] {
  const out: string[] = [];
  if (status >= 500) out.push(`status ${status}`);
  for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    if (!/^\d+$/.test(headers.get(h) ?? '')) out.push(`header ${h} = ${headers.get(h)}`);
  }
  if (status < 400) return out;
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return [...out, 'error body is not JSON'];
  }
  const error = body?.error;
  if (!body || typeof body !== 'object' || Array.isArray(body) || Object.keys(body).join() !== 'error') out.push('body is not exactly {error}');
  else if (!error || typeof error !== 'object' || Array.isArray(error)) out.push('error is not an object');
  else {
    const extra = Object.keys(error).filter((k) => !['code', 'message', 'status', 'details'].includes(k));
    if (extra.length) out.push(`error has fields ${extra.join(', ')}`);
    if (!codes.includes(error.code)) out.push(`error.code ${JSON.stringify(error.code)} is not one of the spec's`);
    if (typeof error.message !== 'string' || !error.message) out.push('error.message is not a string');
    if (error.status !== status) out.push(`error.status ${JSON.stringify(error.status)} is not ${status}`);
    if ('details' in error && !Array.isArray(error.details)) out.push('error.details is not an array');
  }
  return out;
}

/** Runs `f` over `items`, `width` at a time. */
async function pool<T>(items: T[], width: number, f: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await f(items[next++]!);
    }),
  );
}

describe.each(targets.map((t, i) => ({ ...t, doc: documents[i]! })))('fuzzing every operation on $name', (target) => {
  const operations = operationsOf(target.doc);
  const codes: string[] = target.doc.components.schemas.Error.properties.error.properties.code.enum;
  const casesByOp = new Map(operations.map((o) => [`${o.method} ${o.path}`, casesOf(target.doc, o)]));
  let org: Org & { cookie: string };
  const keys: Record<'chat' | 'copilot', Org[]> = { chat: [], copilot: [] };

  beforeAll(async () => {
    org = await orgWithKey(target.url, `fuzz-${target.name}-${Date.now()}@example.org`);
    for (const which of ['chat', 'copilot'] as const) {
      const count = operations.filter((o) => limitOf(o.method, o.path) === which).reduce((n, o) => n + casesByOp.get(`${o.method} ${o.path}`)!.length, 0);
      for (let i = 0; i < Math.ceil(count / PER_KEY[which]); i++) keys[which].push(await newKey(target.url, org, ['admin']));
    }
  });

  it('reads the operations from the document', () => {
    expect(operations.length).toBeGreaterThanOrEqual(50);
    expect(operations.map((o) => `${o.method} ${o.path}`)).toEqual(
      expect.arrayContaining(['POST /pipelines', 'POST /execute', 'POST /webhooks/{pipelineId}', 'POST /agents/{id}/chat', 'POST /copilot/analyze']),
    );
  });

  const used = { chat: 0, copilot: 0 };
  it.each(operations.map((o) => ({ ...o, name: `${o.method} ${o.path}` })))('$name', async ({ method, path, name }) => {
    const cases = casesByOp.get(name)!;
    const failures: string[] = [];
    const which = limitOf(method, path);
    await pool(cases, 6, async (c) => {
      const key = which ? (keys[which][Math.floor(used[which]++ / PER_KEY[which])] ?? org) : org;
      const res = await fetch(`${target.url}${c.url}`, {
        method,
        headers: {
          authorization: `Bearer ${key.key}`,
          'x-organization-id': org.id,
          ...(c.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: c.body,
      });
      const text = await res.text();
      const found = problems(codes, res.status, res.headers, text);
      if (found.length) failures.push(`${method} ${path} — ${c.what}: ${res.status} ${found.join('; ')} — ${text.slice(0, 300)}`);
    });
    expect(failures, `${failures.length} of ${cases.length} requests`).toEqual([]);
  });
});
