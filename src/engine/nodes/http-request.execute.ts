import type { z } from 'zod';
import { NodeError } from '../node-error';
import { connectorHeaders, connectorUrl } from '../lib/http-connector';
import { implementNode, type NodeContext } from '../node-type';
import { httpRequest } from './http-request';
import { CREDENTIAL_HEADER } from '@/shared/credential-headers';

type Config = z.infer<typeof httpRequest.config>;
const EXCERPT = 300;

/** The exact request the node sends (or, in test mode, would send); `via` adds a connector's URL and headers. */
function buildRequest(config: Config, body: unknown, idempotencyKey: string, via?: { url: string; headers: Record<string, string> }) {
  const headers: Record<string, string> = Object.fromEntries(
    Object.entries({ ...config.headers, ...via?.headers }).filter(([name]) => name.toLowerCase() !== 'idempotency-key'),
  );
  headers['Idempotency-Key'] = idempotencyKey;
  const hasContentType = Object.keys(headers).some((h) => h.toLowerCase() === 'content-type');
  const sendsBody = body !== undefined && config.method !== 'GET';
  let payload: string | undefined;
  if (sendsBody) {
    // A string with an explicit content type goes as it is (HL7 v2, XML, CSV…); anything else as JSON.
    if (typeof body === 'string' && hasContentType) payload = body;
    else {
      payload = JSON.stringify(body);
      if (!hasContentType) headers['Content-Type'] = 'application/json';
    }
  }
  if (!Object.keys(headers).some((h) => h.toLowerCase() === 'accept')) headers.Accept = 'application/json, text/plain;q=0.9, */*;q=0.8';
  return { method: config.method, url: via?.url ?? config.url, headers, payload, body: sendsBody ? body : undefined };
}

/** Headers as recorded in a test-mode result: credentials masked, since execution records are widely readable. */
function masked(headers: Record<string, string>, secret: string[] = []): Record<string, string> {
  const hidden = new Set(secret.map((h) => h.toLowerCase()));
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, CREDENTIAL_HEADER.test(name) || hidden.has(name.toLowerCase()) ? '****' : value]),
  );
}

/** The connector's part of the request, when the node names one. */
async function throughConnector(ctx: NodeContext, config: Config) {
  if (!config.connector) return undefined;
  const connector = await ctx.services.connector(config.connector, 'http');
  const url = connectorUrl(connector, config.url);
  if (!url)
    throw new NodeError(
      'CONNECTOR_URL_REFUSED',
      [
        `${shown(config.url)} is not on the host of connector "${connector.name}"`,
        `(${new URL(connector.endpoint).origin}): its credentials are only sent there. Use a path such as /claims.`,
      ].join(' '),
    );
  return { url, ...connectorHeaders(connector) };
}

/** The URL as shown in logs and errors: no query string or credentials, which may hold secrets. */
function shown(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  if (text === '') return null;
  if (/[/+]json\b/i.test(type)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

export const httpRequestNode = implementNode(httpRequest, {
  async execute(ctx, inputs, config) {
    const via = await throughConnector(ctx, config);
    const request = buildRequest(config, inputs.body, ctx.idempotencyKey, via);
    if (inputs.body !== undefined && config.method === 'GET') ctx.log('warn', 'GET requests carry no body: the input was not sent');
    if (ctx.testMode) {
      const { method, url, headers, body } = request;
      ctx.log('info', `test mode: would send ${method} ${shown(url)}`);
      const wouldSend = { method, url, headers: masked(headers, via?.secret), body: body ?? null };
      return { outputs: { response: { simulated: true, request: wouldSend } }, simulated: true };
    }
    const target = `${request.method} ${shown(request.url)}`;
    const timeout = AbortSignal.timeout(config.timeout_ms);
    let response: Response;
    let body: unknown;
    try {
      response = await ctx.services.fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.payload,
        signal: AbortSignal.any([ctx.signal, timeout]),
        redirect: 'follow',
      });
      body = await readBody(response);
    } catch (e) {
      if (timeout.aborted) throw new NodeError('HTTP_TIMEOUT', `${target} got no full answer within ${config.timeout_ms} ms.`);
      if (ctx.signal.aborted) throw new NodeError('CANCELLED', `${target} was aborted: the execution was cancelled or timed out.`);
      const cause = e instanceof Error ? ((e.cause as Error | undefined)?.message ?? e.message) : String(e);
      throw new NodeError('HTTP_REQUEST_FAILED', `${target} failed: ${cause}`);
    }
    ctx.log('info', `${target} → ${response.status}`);
    if (!response.ok) {
      const text = typeof body === 'string' ? body : (JSON.stringify(body) ?? '');
      const excerpt = text.length > EXCERPT ? `${text.slice(0, EXCERPT)}…` : text;
      throw new NodeError('HTTP_ERROR', `${target} answered ${response.status}${excerpt ? `: ${excerpt}` : ''}`);
    }
    const headers = Object.fromEntries(response.headers.entries());
    return { outputs: { response: { status: response.status, headers, body } } };
  },
});
