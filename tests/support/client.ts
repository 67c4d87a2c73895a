import { expect } from 'vitest';
import type { Org } from './accounts';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A REST client for one organization's key, as an external integration would use it. */
export function client(baseUrl: string, org: Org, extraHeaders: Record<string, string> = {}) {
  const call = async <T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${org.key}`,
        'x-organization-id': org.id,
        ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}),
        ...extraHeaders,
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: any = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
  return {
    call,
    get: <T = any>(path: string, headers?: Record<string, string>) => call<T>('GET', path, undefined, headers),
    post: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => call<T>('POST', path, body, headers),
    put: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => call<T>('PUT', path, body, headers),
    del: <T = any>(path: string, headers?: Record<string, string>) => call<T>('DELETE', path, undefined, headers),
  };
}

export type Client = ReturnType<typeof client>;

/** Every response, errors included, carries the three rate-limit headers with integer values. */
export function expectRateHeaders(res: ApiResponse): void {
  for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    expect(res.headers.get(h), h).toMatch(/^\d+$/);
  }
  const reset = Number(res.headers.get('x-ratelimit-reset'));
  const now = Date.now() / 1000;
  expect(reset).toBeGreaterThanOrEqual(Math.floor(now) - 1);
  expect(reset).toBeLessThanOrEqual(Math.ceil(now) + 3600);
}

/** The spec's error shape, nothing else (no stack, no SQL). */
export function expectError(res: ApiResponse, status: number, code: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.body?.error?.code, res.text).toBe(code);
  expect(res.body.error.status).toBe(status);
  expect(typeof res.body.error.message).toBe('string');
  expect(Object.keys(res.body)).toEqual(['error']);
  expect(res.text).not.toMatch(/\bat .+\.(js|ts):\d+|select |insert into|drizzle|postgres/i);
  expectRateHeaders(res);
}

export const sampleDefinition = {
  nodes: [
    { id: 'in', type: 'manual-trigger', name: 'Inbound ADT', config: { fields: { message: 'text' } }, position: { x: 0, y: 0 } },
    { id: 'parse', type: 'hl7v2-parse', config: {}, position: { x: 240, y: 0 } },
  ],
  connections: [{ id: 'c1', source: 'in', source_port: 'message', target: 'parse', target_port: 'text' }],
};

/** An execution's detail once it has ended (queued and running are waited out, up to 20 s). */
export async function pollExecution(api: Client, id: string) {
  for (let i = 0; i < 400; i++) {
    const r = await api.get(`/api/executions/${id}`);
    if (!['queued', 'running'].includes(r.body.status)) return r.body;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`execution ${id} did not finish`);
}
