'use client';

import { KeyRound, Plus } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { CopyField } from '@/components/ui/copy-field';
import { EmptyState } from '@/components/ui/empty-state';
import { QueryState } from '@/components/ui/query-state';
import { PageHeader } from '@/components/ui/page-header';
import { appError } from '@/trpc/errors';
import { api } from '@/trpc/react';
import { CreateKeyDialog } from './create-key-dialog';
import { CurlExample } from './curl-example';
import { KeysTable } from './keys-table';
import { RevokeKeyDialog } from './revoke-key-dialog';
import type { ApiKey } from './types';

/** /settings/api-keys: the organization's keys for the REST API (admins only). */
export function ApiKeysPage() {
  const me = api.account.me.useQuery();
  const keys = api.keys.list.useQuery();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const orgId = me.data?.organization.id ?? '';
  const forbidden = appError(keys.error)?.code === 'FORBIDDEN';

  const newButton = (
    <Button icon={<Plus className="size-4" aria-hidden />} onClick={() => setCreating(true)} disabled={forbidden}>
      New API key
    </Button>
  );

  return (
    <>
      <PageHeader
        title="API keys"
        description={
          <>
            Keys authenticate other systems against the REST API. Send the key as a bearer token together with your organization id. See the{' '}
            <a href="/api/docs" className="font-medium text-teal-700 hover:underline">
              API reference
            </a>{' '}
            for every endpoint.
          </>
        }
        actions={keys.data && keys.data.length > 0 ? newButton : undefined}
      />
      <div className="space-y-6">
        <Card>
          {forbidden ? (
            <div className="p-6">
              <Alert tone="info" title="Only organization admins can manage API keys">
                Ask an admin of {me.data?.organization.name ?? 'your organization'} to create a key for you.
              </Alert>
            </div>
          ) : (
            <QueryState
              query={keys}
              what="API keys"
              isEmpty={(d) => d.length === 0}
              empty={
                <EmptyState icon={<KeyRound className="size-6" aria-hidden />} title="No API keys yet" action={newButton}>
                  Create a key for each system that calls Clinflow (an EHR integration, a script, CI). Give it only the scopes it needs; you can revoke it at
                  any time.
                </EmptyState>
              }
            >
              {(data) => <KeysTable keys={data} onRevoke={setRevoking} />}
            </QueryState>
          )}
        </Card>
        {orgId ? (
          <Card className="p-6">
            <h2 className="text-base font-semibold text-slate-900">Connect to the REST API</h2>
            <p className="mt-1 mb-4 text-sm text-slate-500">
              Every request carries two headers: <code className="text-xs">Authorization: Bearer &lt;key&gt;</code> and{' '}
              <code className="text-xs">X-Organization-ID</code> with the id below.
            </p>
            <div className="space-y-4">
              <CopyField label="Your organization ID" value={orgId} className="max-w-md" />
              <CurlExample apiKey="cfk_…" orgId={orgId} />
            </div>
          </Card>
        ) : null}
      </div>
      <CreateKeyDialog open={creating} onClose={() => setCreating(false)} orgId={orgId} />
      <RevokeKeyDialog apiKey={revoking} onClose={() => setRevoking(null)} />
    </>
  );
}
