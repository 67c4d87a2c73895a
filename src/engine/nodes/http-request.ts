import { z } from 'zod';
import { describeNode } from '../node-descriptor';
import { anyOf } from '../node-plan';

const HTTP_URL = z.url({ protocol: /^https?$/ });

const Config = z
  .object({
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).default('POST').describe('HTTP method'),
    connector: z
      .string()
      .max(200)
      .optional()
      .describe('An `http` connector: its base URL, headers and credentials (kept encrypted, never in the pipeline) are used'),
    url: z
      .string()
      .min(1, 'an http(s) URL is required')
      .max(8000)
      .describe('Address to call (http or https); with a connector, a path such as /claims under its base URL'),
    headers: z
      .record(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'not a valid header name'), z.string())
      .default({})
      .describe('Extra request headers, e.g. {"Authorization": "Bearer …"}'),
    timeout_ms: z.number().int().min(100).max(120_000).default(10_000).describe('Give up after this many milliseconds'),
  })
  .superRefine((c, ctx) => {
    const relative = c.connector && c.url.startsWith('/');
    if (!relative && !HTTP_URL.safeParse(c.url).success) {
      ctx.addIssue({
        code: 'custom',
        path: ['url'],
        message: c.connector ? 'an http(s) URL, or a path such as /claims under the connector' : 'an http(s) URL is required',
      });
    }
  });

export const httpRequest = describeNode({
  id: 'http-request',
  name: 'HTTP request',
  idBase: 'http',
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
    'Every request carries `Idempotency-Key: <execution id>:<node id>`, the same on every retry of the node and of the run',
    '(a retried run sends the id of the run it retried), so a receiver that honours it never applies a write twice.',
    '',
    '`response` is `{"status": 201, "headers": {…}, "body": …}`; `body` is parsed JSON when the response',
    'content type is JSON (`application/json`, `application/fhir+json`…), otherwise text. Use the node',
    'settings’ retry to try again on failures.',
    '',
    "With an `http` `connector`, `url` may be a path (`/claims`) under the connector's base URL; the connector's",
    'headers and credentials (basic, bearer or an API key header) are added, and sent only to its own host. Prefer',
    "it to an `Authorization` header in `headers`: a pipeline's definition is readable by every key that reads",
    "pipelines, a connector's credentials are encrypted and never shown.",
    '',
    '**Test mode**: nothing is sent. The node returns the request it would have sent,',
    '`{"simulated": true, "request": {"method", "url", "headers", "body"}}`, and is marked `simulated`;',
    'credential headers (`Authorization`, `Cookie`, `*-Api-Key`, `*token*`…) show as `****` there.',
  ].join('\n'),
  config: Config,
  example: { method: 'POST', url: 'https://partner.example.org/fhir', headers: { 'Content-Type': 'application/fhir+json' }, timeout_ms: 15000 },
  ui: { order: ['method', 'connector', 'url', 'headers', 'timeout_ms'], fields: { connector: { widget: 'connector', connectorType: 'http' } } },
  plan: {
    edit: { cue: /https?:\/\/|\bapi\b|\bendpoint\b|\bnotif\w*|\bhttp\b|\bslack\b|\bwebhook\b/, names: /\bhttp\b|\bapi\b|\bendpoint\b|\bwebhook call\b/ },
    role: 'sink',
    stage: 'sink',
    input: 'body',
    output: 'response',
    search: false,
    cue: anyOf(
      /\b(to|at)\s+(the\s+|our\s+)?[^.]{0,40}?https?:\/\//,
      /\b(post|send|forward|push|notify|call|deliver)\w*[^.]{0,50}(https?:\/\/|\bapi\b|\bendpoint\b|\bhttp\b|\brest\b|\bslack\b|\bteams\b|\bpager\w*)/,
      /\bnotif\w*|\balert\w*|\bhttp request\b/,
    ),
    // "send it to the FHIR server / the EHR" is the FHIR write
    dropWhen: ({ step, others }) => /fhir|\behr\b/.test(step.said) && others.some((o) => o.plan.role === 'sink' && o.connector === 'fhir'),
    takesRaw: true,
    configure: (a) => {
      const name = a.connectors.find((c) => c.type === 'http' && !a.used.has(c.name))?.name;
      if (a.urls[0]) {
        a.config.url = a.urls[0];
        a.filled.push(`url ${a.urls[0]}`);
      } else if (name) {
        a.config.connector = name;
        a.config.url = '/';
        a.used.add(name);
        a.filled.push(`connector "${name}"`);
        a.missing.push(`url: the path under the connector "${name}"`);
      } else {
        a.config.url = 'https://example.org/replace-me';
        a.missing.push('url: no address or http connector was given; replace https://example.org/replace-me');
      }
    },
    ownConnector: true,
  },
  ports: () => ({
    inputs: [{ name: 'body', type: 'any', optional: true, description: 'What to send (JSON unless a string with a Content-Type)' }],
    outputs: [{ name: 'response', type: 'json', description: '{status, headers, body}' }],
  }),
  credentialHeaders: 'headers',
  services: ['fetch'],
  errors: {
    HTTP_ERROR: 'the answer was not 2xx (the message has the status and the start of the body)',
    HTTP_TIMEOUT: 'no full answer within `timeout_ms`',
    HTTP_REQUEST_FAILED: 'the host could not be reached',
    CONNECTOR_URL_REFUSED: "`url` is on another host than the connector's base URL (its credentials are never sent elsewhere)",
  },
});
