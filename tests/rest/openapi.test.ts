import { describe, expect, inject, it } from 'vitest';

describe('OpenAPI document', () => {
  const target = inject('targets')[0]!;

  it('is OpenAPI 3.1 and tells the truth about statuses, errors and headers', async () => {
    const res = await fetch(`${target.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    const doc = await res.json();
    expect(doc.openapi).toMatch(/^3\.1\./);
    const paths = doc.paths as Record<string, Record<string, any>>;
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining(['/pipelines', '/pipelines/{id}', '/pipelines/{id}/deploy', '/pipelines/{id}/undeploy', '/pipelines/{id}/versions', '/pipelines/{id}/versions/{n}']),
    );
    expect(Object.keys(paths['/pipelines']!.post.responses)).toContain('201');
    expect(paths['/pipelines']!.post.responses).not.toHaveProperty('200');
    expect(Object.keys(paths['/pipelines/{id}']!.delete.responses)).toEqual(expect.arrayContaining(['204', '404', '409']));
    expect(paths['/pipelines/{id}']!.delete.responses['204']).not.toHaveProperty('content');
    const notFound = paths['/pipelines/{id}']!.get.responses['404'];
    expect(notFound.content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
    expect(doc.components.schemas.Error.properties.error.required).toEqual(['code', 'message', 'status']);

    const listParams = paths['/pipelines']!.get.parameters.map((p: any) => p.name ?? p.$ref);
    expect(listParams).toEqual(expect.arrayContaining(['limit', 'offset', '#/components/parameters/OrganizationId']));
    for (const ops of Object.values(paths)) {
      for (const op of Object.values(ops)) {
        for (const r of Object.values(op.responses as Record<string, any>)) {
          expect(Object.keys(r.headers ?? {})).toEqual(expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']));
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
