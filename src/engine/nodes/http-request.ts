import { z } from 'zod';
import { defineNode, NodeError } from '../types';

const Config = z.object({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).default('POST').describe('HTTP method'),
  url: z.url({ protocol: /^https?$/, error: 'an http(s) URL is required' }).describe('Address to call (http or https)'),
  headers: z
    .record(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'not a valid header name'), z.string())
    .default({})
    .describe('Extra request headers, e.g. {"Authorization": "Bearer …"}'),
  timeout_ms: z.number().int().min(100).max(120_000).default(10_000).describe('Give up after this many milliseconds'),
});

type Config = z.infer<typeof Config>;
const EXCERPT = 300;

/** The exact request the node sends (or, in test mode, would send). */
function buildRequest(config: Config, body: unknown, idempotencyKey: string) {
  const headers: Record<string, string> = Object.fromEntries(
    Object.entries(config.headers).filter(([name]) => name.toLowerCase() !== 'idempotency-key'),
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
  return { method: config.method, url: config.url, headers, payload, body: sendsBody ? body : undefined };
}

const SECRET_HEADER = /authorization|cookie|api[-_]?key|token|secret|password/i;

/** Headers as recorded in a test-mode result: credentials masked, since execution records are widely readable. */
function masked(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, SECRET_HEADER.test(name) ? '****' : value]));
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

export const httpRequest = defineNode({
  id: 'http-request',
  name: 'HTTP request',
  category: 'output',
  description: 'Sends the incoming value to an HTTP endpoint (webhook, REST API) and returns the response.',
  version: '1.0.0',
  keywords: ['http', 'https', 'rest', 'api', 'webhook', 'post', 'request', 'call', 'send'],
  side_effect: 'write',
  documentation: [
    'Calls `url` with `method`, sending the incoming `body` as JSON (`Content-Type: application/json`). A',
    'string body with your own `Content-Type` header is sent as it is (e.g. an HL7 v2 message as',
    '`x-application/hl7-v2+er7`). GET requests send no body.',
    '',
    'Every request carries `Idempotency-Key: <execution id>:<node id>`, the same on every retry of the',
    'node, so a receiver that honours it never applies a write twice.',
    '',
    '**Ports**',
    '- in `body` (any, optional)',
    '- out `response` (json): `{"status": 201, "headers": {…}, "body": …}`; `body` is parsed JSON when the',
    '  response content type is JSON (`application/json`, `application/fhir+json`…), otherwise text.',
    '',
    '**Config**',
    '- `method`: GET, POST (default), PUT, PATCH, DELETE. `url`: http(s) address.',
    '- `headers`: extra headers (default none). `timeout_ms`: default 10000.',
    '',
    '**Errors**: a non-2xx answer fails with `HTTP_ERROR` (status and the start of the body);',
    '`HTTP_TIMEOUT` past `timeout_ms`; `HTTP_REQUEST_FAILED` when the host cannot be reached. Use the node',
    'settings’ retry to try again on failures.',
    '',
    '**Test mode**: nothing is sent. The node returns the request it would have sent,',
    '`{"simulated": true, "request": {"method", "url", "headers", "body"}}`, and is marked `simulated`;',
    'credential headers (`Authorization`, `Cookie`, `*-Api-Key`, `*token*`…) show as `****` there.',
    '',
    '**Example**: post a FHIR Bundle to a partner API:',
    '```json',
    '{"method": "POST", "url": "https://partner.example.org/fhir", "headers": {"Authorization": "Bearer …",',
    '  "Content-Type": "application/fhir+json"}, "timeout_ms": 15000}',
    '```',
  ].join('\n'),
  config: Config,
  inputs: () => [{ name: 'body', type: 'any', optional: true, description: 'What to send (JSON unless a string with a Content-Type)' }],
  outputs: () => [{ name: 'response', type: 'json', description: '{status, headers, body}' }],
  async execute(ctx, inputs, config) {
    const request = buildRequest(config, inputs.body, ctx.idempotencyKey);
    if (inputs.body !== undefined && config.method === 'GET') ctx.log('warn', 'GET requests carry no body: the input was not sent');
    if (ctx.testMode) {
      const { method, url, headers, body } = request;
      ctx.log('info', `test mode: would send ${method} ${shown(url)}`);
      const wouldSend = { method, url, headers: masked(headers), body: body ?? null };
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
