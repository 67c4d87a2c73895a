import { describe, expect, inject, it } from 'vitest';
import { ERROR_STATUS } from '@/server/errors';

/** The document under test, for `response` to follow references in. */
let doc: any;

/** A response as a client reads it: a reference to a shared one (components.responses) followed. */
const response = (r: any): any => (r.$ref ? doc.components.responses[r.$ref.replace('#/components/responses/', '')] : r);

/** The error codes a documented error response lists. */
const codesOf = (r: any): string[] => [...response(r).content['application/json'].schema.allOf[1].properties.error.properties.code.enum];

describe('OpenAPI document', () => {
  const target = inject('targets')[0]!;

  it('is OpenAPI 3.1 and tells the truth about statuses, errors and headers', async () => {
    const res = await fetch(`${target.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    doc = await res.json();
    expect(doc.openapi).toMatch(/^3\.1\./);
    // examples a reader recognises: no ±2^53−1 bounds for Swagger UI to show as an integer's example
    expect(JSON.stringify(doc)).not.toContain('9007199254740991');
    const paths = doc.paths as Record<string, Record<string, any>>;
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining([
        '/pipelines',
        '/pipelines/{id}',
        '/pipelines/{id}/deploy',
        '/pipelines/{id}/undeploy',
        '/pipelines/{id}/versions',
        '/pipelines/{id}/versions/{n}',
      ]),
    );
    expect(Object.keys(paths['/pipelines']!.post.responses)).toContain('201');
    expect(paths['/pipelines']!.post.responses).not.toHaveProperty('200');
    expect(Object.keys(paths['/pipelines/{id}']!.delete.responses)).toEqual(expect.arrayContaining(['204', '404', '409']));
    expect(paths['/pipelines/{id}']!.delete.responses['204']).not.toHaveProperty('content');
    // an error response is shared by the operations that answer it, and found where its reference says
    expect(paths['/pipelines/{id}']!.get.responses['404'].$ref).toBe('#/components/responses/E404.PIPELINE_NOT_FOUND');
    const notFound = response(paths['/pipelines/{id}']!.get.responses['404']);
    expect(notFound.content['application/json'].schema.allOf[0].$ref).toBe('#/components/schemas/Error');
    expect(codesOf(notFound)).toEqual(['PIPELINE_NOT_FOUND']);
    // each operation lists the codes its service can really answer, by status
    const execute = paths['/execute']!.post.responses;
    expect(codesOf(execute['400'])).toEqual(expect.arrayContaining(['VALIDATION_FAILED', 'INVALID_JSON', 'PIPELINE_INVALID']));
    expect(codesOf(execute['409'])).toEqual(['PIPELINE_NOT_DEPLOYED']);
    expect(codesOf(execute['413'])).toEqual(['PAYLOAD_TOO_LARGE']);
    expect(codesOf(execute['429'])).toEqual(['RATE_LIMITED', 'CONCURRENCY_LIMIT']);
    expect(response(execute['429']).headers).toHaveProperty('Retry-After');
    expect(codesOf(paths['/pipelines/{id}/deploy']!.post.responses['400'])).toContain('PIPELINE_INVALID');
    expect(codesOf(paths['/execute/step/{sessionId}']!.post.responses['410'])).toEqual(['STEP_SESSION_EXPIRED']);
    expect(paths['/pipelines']!.get.responses).not.toHaveProperty('413'); // a GET takes no body
    expect(codesOf(paths['/pipelines']!.post.responses['413'])).toEqual(['PAYLOAD_TOO_LARGE']); // every JSON body route
    expect(codesOf(paths['/pipelines']!.post.responses['415'])).toEqual(['UNSUPPORTED_MEDIA_TYPE']);
    // what each service can really answer, no more: a retry of a deleted pipeline's execution is 404 PIPELINE_NOT_FOUND;
    // a step session takes no execution slot, so it is never refused with CONCURRENCY_LIMIT
    const retry = paths['/execute/retry']!.post.responses;
    expect(codesOf(retry['404']).sort()).toEqual(['EXECUTION_NOT_FOUND', 'NODE_NOT_FOUND', 'PIPELINE_NOT_FOUND']);
    // a retry needing data its run's data policy did not keep (issue 27)
    expect(codesOf(retry['409'])).toEqual(['PIPELINE_NOT_DEPLOYED', 'PAYLOADS_NOT_KEPT']);
    // bulk reprocess (issue 30 §2): accepted, followed by its own resource
    const reprocess = paths['/executions/reprocess']!.post;
    expect(Object.keys(reprocess.responses)).toContain('202');
    expect(reprocess.description).toContain('idempotency keys');
    expect(codesOf(reprocess.responses['404'])).toEqual(['PIPELINE_NOT_FOUND']);
    expect(codesOf(paths['/executions/reprocess/{id}']!.get.responses['404'])).toEqual(['NOT_FOUND']);
    expect(Object.keys(paths['/organization/data-settings']!).sort()).toEqual(['get', 'put']);
    expect(paths['/pipelines/{id}']!.put.requestBody.content['application/json'].schema.properties).toHaveProperty('data_settings');
    expect(codesOf(paths['/execute/step']!.post.responses['429'])).toEqual(['RATE_LIMITED']);
    expect(codesOf(paths['/pipelines/{id}']!.put.responses['409'])).toEqual(['VERSION_CONFLICT']);
    expect(codesOf(paths['/pipelines/{id}']!.delete.responses['409'])).toEqual(['PIPELINE_DEPLOYED']);
    // the webhook (a route handler of its own) takes any body: no 415, but the body limit and bad JSON
    const webhook = paths['/webhooks/{pipelineId}']!.post.responses;
    expect(Object.keys(webhook)).toEqual(['202', '400', '401', '403', '404', '409', '413', '429', '500', '503']);
    expect(codesOf(webhook['400']).sort()).toEqual(['INVALID_JSON', 'JSON_TOO_DEEP', 'PIPELINE_INVALID', 'VALIDATION_FAILED']);
    expect(codesOf(webhook['409']).sort()).toEqual(['PIPELINE_NOT_DEPLOYED', 'WEBHOOK_NOT_ENABLED']);
    // every code listed is one of the error table's, under its own status
    for (const ops of Object.values(paths)) {
      for (const op of Object.values(ops)) {
        for (const [status, r] of Object.entries(op.responses as Record<string, any>)) {
          if (Number(status) < 400) continue;
          for (const code of codesOf(r)) expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS], code).toBe(Number(status));
          expect(response(r).description.split(', ')).toEqual(codesOf(r));
        }
      }
    }
    expect(doc.components.schemas.Error.properties.error.required).toEqual(['code', 'message', 'status']);

    const listParams = paths['/pipelines']!.get.parameters.map((p: any) => p.name ?? p.$ref);
    expect(listParams).toEqual(expect.arrayContaining(['limit', 'offset', '#/components/parameters/OrganizationId']));
    for (const ops of Object.values(paths)) {
      for (const op of Object.values(ops)) {
        for (const r of Object.values(op.responses as Record<string, any>)) {
          expect(Object.keys(response(r).headers ?? {})).toEqual(expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']));
        }
      }
    }
  });

  it('is rendered as a readable reference at /api/docs', async () => {
    const res = await fetch(`${target.url}/api/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
  });
});
