/**
 * Concurrent keep-alive clients (Node's fetch, one shared connection pool, as an integration would run it)
 * sending a fixed mix of ordinary and hostile requests to the REST API: plain reads, unknown paths, bad
 * queries, bodies over MAX_BODY_BYTES, deeply nested and broken JSON, wrong content types, bodies sent where
 * none is read, and requests without a key. Bounded in count; loopback only. Every request either gets an
 * answer (its status is counted) or fails at the connection (its error code is counted, by kind).
 */

export interface LoadTarget {
  url: string;
  key: string;
  org: string;
  /** The server's MAX_BODY_BYTES. */
  maxBody: number;
}

interface Kind {
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  auth?: boolean;
  /** The status the request must get. */
  expect: number;
}

export function kindsFor(t: LoadTarget): Kind[] {
  const json = { 'content-type': 'application/json' };
  const nested = '['.repeat(200) + ']'.repeat(200);
  const big = JSON.stringify({ name: 'x'.repeat(t.maxBody * 3) });
  const pipeline = JSON.stringify({ name: 'x'.repeat(10), definition: { nodes: [], connections: [] } });
  return [
    { name: 'list', method: 'GET', path: '/api/pipelines', expect: 200 },
    { name: 'openapi', method: 'GET', path: '/api/openapi.json', expect: 200, auth: false },
    { name: 'unknown path', method: 'GET', path: '/api/no-such-thing/%2e%2e/x', expect: 404 },
    { name: 'bad query', method: 'GET', path: '/api/pipelines?limit=abc&offset=-1', expect: 400 },
    { name: 'no key', method: 'GET', path: '/api/pipelines', auth: false, expect: 401 },
    { name: 'oversized body', method: 'POST', path: '/api/pipelines', headers: json, body: big, expect: 413 },
    { name: 'deeply nested', method: 'POST', path: '/api/pipelines', headers: json, body: nested, expect: 400 },
    { name: 'bad json', method: 'POST', path: '/api/pipelines', headers: json, body: '{"name": ', expect: 400 },
    { name: 'wrong content type', method: 'POST', path: '/api/pipelines', headers: { 'content-type': 'text/plain' }, body: pipeline, expect: 415 },
    // answered before the body is read: the body is still on the connection when the answer goes out
    { name: 'body to unknown path', method: 'POST', path: '/api/no-such-thing', headers: json, body: pipeline.repeat(20), expect: 404 },
    { name: 'body without key', method: 'POST', path: '/api/pipelines', headers: json, body: pipeline.repeat(20), auth: false, expect: 401 },
    { name: 'body, wrong method', method: 'PATCH', path: '/api/pipelines', headers: json, body: pipeline.repeat(20), expect: 405 },
    { name: 'oversized body to unknown path', method: 'POST', path: '/api/no-such-thing', headers: json, body: big, expect: 404 },
    { name: 'oversized body without key', method: 'POST', path: '/api/pipelines', headers: json, body: big, auth: false, expect: 401 },
  ];
}

export interface LoadResult {
  sent: number;
  /** Requests that failed at the connection, by kind and error code. */
  failures: Record<string, number>;
  /** Answers whose status was not the one expected, by kind and status. */
  unexpected: Record<string, number>;
  /** Connection failures in all. */
  resets: number;
}

function codeOf(e: unknown): string {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (e instanceof Error ? e.message : String(e));
}

/** `clients` loops at once, each sending `perClient` requests, cycling through the kinds in turn from its own offset. */
export async function runMixedLoad(t: LoadTarget, clients: number, perClient: number): Promise<LoadResult> {
  const kinds = kindsFor(t);
  const result: LoadResult = { sent: 0, failures: {}, unexpected: {}, resets: 0 };
  const bump = (m: Record<string, number>, k: string) => (m[k] = (m[k] ?? 0) + 1);
  const loop = async (client: number) => {
    for (let i = 0; i < perClient; i++) {
      const kind = kinds[(client * 3 + i) % kinds.length]!;
      const headers: Record<string, string> = { ...kind.headers };
      if (kind.auth !== false) Object.assign(headers, { authorization: `Bearer ${t.key}`, 'x-organization-id': t.org });
      result.sent++;
      try {
        const res = await fetch(`${t.url}${kind.path}`, { method: kind.method, headers, body: kind.body, signal: AbortSignal.timeout(30_000) });
        await res.arrayBuffer();
        if (res.status !== kind.expect) bump(result.unexpected, `${kind.name}: ${res.status}`);
      } catch (e) {
        result.resets++;
        bump(result.failures, `${kind.name}: ${codeOf(e)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, c) => loop(c)));
  return result;
}
