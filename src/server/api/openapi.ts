import { forEachOpenApiProcedure, generateOpenApiDocument, normalizePath } from 'trpc-to-openapi';
import { appRouter } from './root';
import type { Meta } from './trpc';
import { ERROR_STATUS } from '@/server/errors';

type Json = Record<string, unknown>;

const ERROR_SCHEMA = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'status'],
      properties: {
        code: { type: 'string', enum: Object.keys(ERROR_STATUS), examples: ['PIPELINE_NOT_FOUND'] },
        message: { type: 'string' },
        status: { type: 'integer', description: 'Equal to the HTTP status' },
        details: { type: 'array', description: 'Field errors, on VALIDATION_FAILED', items: { type: 'object' } },
      },
    },
  },
};

const RATE_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
};

const ERRORS: Record<string, string> = {
  '400': 'Invalid request body or parameters (VALIDATION_FAILED, INVALID_JSON)',
  '401': 'Missing or invalid API key (UNAUTHENTICATED)',
  '403': 'Key of another organization, or lacking the scope (FORBIDDEN)',
  '404': 'Resource not found in this organization',
  '409': 'Conflict with the resource state (PIPELINE_DEPLOYED, PIPELINE_NOT_DEPLOYED, VERSION_CONFLICT, STEP_SESSION_FINISHED)',
  '410': 'The step session expired (STEP_SESSION_EXPIRED)',
  '415': 'Request body is not application/json',
  '429': 'Rate limit exceeded (RATE_LIMITED; see Retry-After) or too many running executions (CONCURRENCY_LIMIT)',
  '500': 'Internal error (INTERNAL); never carries a stack trace',
};

function errorResponse(description: string): Json {
  const headers = description.startsWith('Rate') ? { ...RATE_HEADERS, 'Retry-After': { schema: { type: 'integer' } } } : RATE_HEADERS;
  return { description, headers, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
}

/** Which error statuses an operation can answer with. */
function errorStatuses(method: string, path: string): string[] {
  const s = ['400', '401', '403', '429', '500'];
  const refersToResource = path.includes('{') || path.startsWith('/execute');
  if (refersToResource) s.push('404');
  if (method !== 'get' && method !== 'delete') s.push('415');
  if (method === 'delete' || method === 'put' || /\/(deploy|undeploy)$/.test(path) || /^\/execute(\/retry|\/step\/\{sessionId\})?$/.test(path)) {
    s.push('409');
  }
  if (path === '/execute/step/{sessionId}') s.push('410');
  return s.sort();
}

/** The webhook is a route handler of its own (it takes any body), so its operation is written here. */
function webhookOperation(): Json {
  const responses: Record<string, Json> = {
    '202': {
      description: 'Accepted: an execution of the deployed pipeline was queued',
      headers: RATE_HEADERS,
      content: { 'application/json': { schema: { type: 'object', properties: { execution_id: { type: 'string' }, status: { const: 'running' } } } } },
    },
  };
  for (const s of ['400', '401', '403', '404', '409', '413', '429', '500']) {
    responses[s] = errorResponse(s === '409' ? 'Pipeline not deployed (PIPELINE_NOT_DEPLOYED) or not started by a webhook trigger (WEBHOOK_NOT_ENABLED)' : s === '413' ? 'Body over 2 MiB' : ERRORS[s]!);
  }
  return {
    operationId: 'webhooks-receive',
    summary: "Start an execution through a pipeline's webhook trigger",
    description: 'Any body: JSON arrives parsed, anything else (HL7 v2, XML, CSV) as text. The execution inputs are `{body, headers, query}`. Needs the `execute` scope.',
    tags: ['Executions'],
    security: [{ bearerAuth: [] }],
    parameters: [
      { name: 'pipelineId', in: 'path', required: true, schema: { type: 'string' } },
      { $ref: '#/components/parameters/OrganizationId' },
    ],
    requestBody: { required: false, content: { 'application/json': { schema: {} }, 'text/plain': { schema: { type: 'string' } } } },
    responses,
  };
}

let cached: Json | undefined;

/**
 * The OpenAPI 3.1 document of the REST API, generated from the procedures and corrected where the
 * generator does not tell the truth: real success statuses (201, 204), the spec's error shape,
 * X-Organization-ID, and the rate-limit headers on every response.
 */
export function openApiDocument(): Json {
  cached ??= build();
  return cached;
}

function build(): Json {
  const doc = generateOpenApiDocument(appRouter, {
    title: 'Clinflow API',
    version: '1.0.0',
    description:
      'Pipelines, executions, agents and the copilot of Clinflow. Every request carries `Authorization: Bearer <API key>` ' +
      'and `X-Organization-ID`. Every response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset; ' +
      'every error has the body `{"error": {"code", "message", "status"}}`.',
    baseUrl: '/api',
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key, cfk_…' } },
  }) as unknown as Json;

  const statusByOp = new Map<string, number>();
  forEachOpenApiProcedure(appRouter._def.procedures, ({ meta }) => {
    const m = meta as Meta & { openapi: NonNullable<Meta['openapi']> };
    statusByOp.set(`${m.openapi.method.toLowerCase()} ${normalizePath(m.openapi.path)}`, m.successStatus ?? 200);
  });

  const paths = doc.paths as Record<string, Record<string, Json>>;
  for (const [path, ops] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const responses = op.responses as Record<string, Json>;
      const ok = responses['200'] ?? { description: 'Success' };
      const status = statusByOp.get(`${method} ${path}`) ?? 200;
      const fixed: Record<string, Json> = {};
      fixed[String(status)] =
        status === 204 ? { description: 'No content', headers: RATE_HEADERS } : { ...ok, headers: RATE_HEADERS };
      for (const s of errorStatuses(method, path)) fixed[s] = errorResponse(ERRORS[s] ?? 'Error');
      op.responses = fixed;
      op.parameters = [
        ...((op.parameters as Json[] | undefined) ?? []),
        { $ref: '#/components/parameters/OrganizationId' },
      ];
    }
  }

  paths['/webhooks/{pipelineId}'] = { post: webhookOperation() };

  const components = (doc.components ?? {}) as Json;
  components.schemas = { ...((components.schemas as Json) ?? {}), Error: ERROR_SCHEMA };
  components.parameters = {
    OrganizationId: {
      name: 'X-Organization-ID',
      in: 'header',
      required: true,
      description: 'The organization of the API key',
      schema: { type: 'string' },
    },
  };
  components.headers = {
    'X-RateLimit-Limit': { description: 'Requests allowed per window', schema: { type: 'integer' } },
    'X-RateLimit-Remaining': { description: 'Requests left in this window', schema: { type: 'integer' } },
    'X-RateLimit-Reset': { description: 'Unix time (seconds) when the window resets', schema: { type: 'integer' } },
  };
  doc.components = components;
  // relative, so it is right behind any proxy or host name
  doc.servers = [{ url: '/api' }];
  doc.security = [{ bearerAuth: [] }];
  return doc;
}
