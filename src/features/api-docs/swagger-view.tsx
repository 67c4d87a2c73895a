'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import 'swagger-ui-dist/swagger-ui.css';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import './swagger-overrides.css';

type Spec = Record<string, unknown>;

interface SwaggerUIBundle {
  (options: Record<string, unknown>): unknown;
}

/**
 * Swagger UI over our own /api/openapi.json, from swagger-ui-dist's prebuilt bundle: everything it needs
 * is in our build (no CDN). Bundling swagger-ui-react's sources with Turbopack breaks its OpenAPI 3.1
 * support ("refract is not a function", operations spin forever); the prebuilt bundle does not go through
 * that. "Try it out" targets the origin this page was loaded from; paste an API key under Authorize and
 * the organization id in each operation's X-Organization-ID field.
 */
export default function SwaggerView() {
  const mount = useRef<HTMLDivElement>(null);
  const [spec, setSpec] = useState<Spec | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    setError(null);
    try {
      const res = await fetch('/api/openapi.json', { headers: { accept: 'application/json' } });
      if (!res.ok) throw new Error(`The server answered ${res.status} ${res.statusText}.`);
      const doc = (await res.json()) as Spec;
      setSpec({ ...doc, servers: [{ url: `${window.location.origin}/api`, description: 'This Clinflow server' }] });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    if (!spec || !mount.current) return;
    let cancelled = false;
    void import('swagger-ui-dist/swagger-ui-bundle.js').then(
      (module) => {
        // the bundle is UMD without types: its default export or the module itself is the constructor
        const SwaggerUI = ((module as { default?: SwaggerUIBundle }).default ?? module) as unknown as SwaggerUIBundle;
        if (cancelled || !mount.current) return;
        SwaggerUI({
          domNode: mount.current,
          spec,
          docExpansion: 'list',
          defaultModelsExpandDepth: 0,
          deepLinking: true,
          persistAuthorization: true,
          tryItOutEnabled: false,
        });
      },
      (e: unknown) => setError(`The reference viewer did not load: ${e instanceof Error ? e.message : String(e)}`),
    );
    return () => {
      cancelled = true;
    };
  }, [spec]);

  if (error) {
    return (
      <div className="mx-auto mt-10 max-w-lg space-y-3">
        <Alert title="Could not load the API description">{error}</Alert>
        <Button variant="secondary" onClick={() => void load()}>
          Try again
        </Button>
      </div>
    );
  }
  return (
    <>
      {spec ? null : <Spinner label="Loading the API reference…" />}
      <div ref={mount} data-testid="api-reference" />
    </>
  );
}
