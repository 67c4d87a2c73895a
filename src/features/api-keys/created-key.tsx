'use client';

import { Alert } from '@/components/ui/alert';
import { CopyField } from '@/components/ui/copy-field';
import { CurlExample } from './curl-example';
import type { CreatedApiKey } from './types';

/** The new key, shown this once, with the organization id a client sends alongside it. */
export function CreatedKey({ created, orgId }: { created: CreatedApiKey; orgId: string }) {
  return (
    <div className="space-y-4">
      <Alert tone="warning" title="Copy this key now — you will not see it again">
        Clinflow keeps only a hash of the key. If you lose it, revoke it and create a new one.
      </Alert>
      <CopyField label="API key" value={created.key} />
      <CopyField label="Organization ID" value={orgId} />
      <div className="space-y-1.5">
        <p className="text-sm font-medium text-slate-700">Try it</p>
        <CurlExample apiKey={created.key} orgId={orgId} />
      </div>
    </div>
  );
}
