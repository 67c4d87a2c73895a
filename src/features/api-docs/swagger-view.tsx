'use client';

import { useCallback, useEffect, useState } from 'react';
import SwaggerUI from 'swagger-ui-react';
import 'swagger-ui-react/swagger-ui.css';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import './swagger-overrides.css';

type Spec = Record<string, unknown>;

/**
 * Swagger UI over our own /api/openapi.json; everything it needs is bundled (no CDN). "Try it out"
 * targets the origin this page was loaded from, so requests stay same-origin.
 */
export default function SwaggerView() {
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
  if (!spec) return <Spinner label="Loading the API reference…" />;
  return <SwaggerUI spec={spec} docExpansion="list" defaultModelsExpandDepth={0} deepLinking persistAuthorization />;
}
