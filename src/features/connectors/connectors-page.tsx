'use client';

import { CheckCircle2, Plug, Plus, XCircle } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { QueryState } from '@/components/ui/query-state';
import { errorMessage } from '@/trpc/errors';
import { api, type RouterOutputs } from '@/trpc/react';
import { ConnectorDialog, type Connector } from './connector-dialog';

type TestResult = RouterOutputs['connectors']['test'];

function Checks({ result }: { result: TestResult }) {
  return (
    <ul className="space-y-1 text-xs" aria-label="Test result">
      {result.checks.map((c) => (
        <li key={c.name} className="flex items-start gap-2">
          {c.ok ? (
            <CheckCircle2 className="mt-px size-3.5 shrink-0 text-emerald-600" aria-label="passed" />
          ) : (
            <XCircle className="mt-px size-3.5 shrink-0 text-red-600" aria-label="failed" />
          )}
          <span className={c.ok ? 'text-slate-700' : 'text-red-700'}>
            <span className="font-medium">{c.name}</span> — {c.detail} <span className="text-slate-400">({c.ms} ms)</span>
          </span>
        </li>
      ))}
    </ul>
  );
}

/** /settings/connectors: the organization's connections to outside systems, created from each type's schema and tested for real. */
export function ConnectorsPage() {
  const list = api.connectors.list.useQuery({ limit: 100, offset: 0 });
  const types = api.connectors.types.useQuery({}, { staleTime: Infinity });
  const utils = api.useUtils();
  const test = api.connectors.test.useMutation();
  const remove = api.connectors.remove.useMutation({ onSuccess: () => void utils.connectors.list.invalidate() });
  const [results, setResults] = useState<Record<string, TestResult>>({});
  const [dialog, setDialog] = useState<{ editing: Connector | null } | null>(null);
  const [deleting, setDeleting] = useState<Connector | null>(null);

  const runTest = (c: Connector) => test.mutate({ id: c.id }, { onSuccess: (r) => setResults((all) => ({ ...all, [c.id]: r })) });
  const newButton = (
    <Button icon={<Plus className="size-4" aria-hidden />} onClick={() => setDialog({ editing: null })} disabled={!types.data}>
      New connector
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Connectors"
        description={[
          'The systems your pipelines reach: FHIR servers, HL7 v2 feeds over MLLP, HTTP APIs and Postgres databases.',
          'Credentials are encrypted at rest and never shown again; Test connects for real and says what worked.',
        ].join(' ')}
        actions={newButton}
      />
      <Card>
        <QueryState
          query={list}
          what="the connectors"
          isEmpty={(d) => d.connectors.length === 0}
          empty={
            <EmptyState icon={<Plug className="size-6" aria-hidden />} title="No connectors yet" action={newButton}>
              Create one for each system a pipeline reads from or writes to; nodes such as FHIR query or HL7 v2 MLLP send pick it by name.
            </EmptyState>
          }
        >
          {(d) => (
            <ul className="divide-y divide-slate-100">
              {d.connectors.map((c) => (
                <li key={c.id} className="space-y-2 px-4 py-3" data-testid={`connector-${c.name}`}>
                  <div className="flex flex-wrap items-center gap-3">
                    <div className="min-w-0 flex-1">
                      <p className="font-medium text-slate-900">
                        {c.name} <Badge>{types.data?.types.find((t) => t.type === c.type)?.name ?? c.type}</Badge>
                      </p>
                      <p className="truncate font-mono text-xs text-slate-500">{c.endpoint}</p>
                    </div>
                    <Button variant="secondary" loading={test.isPending && test.variables?.id === c.id} onClick={() => runTest(c)}>
                      Test
                    </Button>
                    <Button variant="secondary" onClick={() => setDialog({ editing: c })}>
                      Edit
                    </Button>
                    <Button variant="quiet-danger" onClick={() => setDeleting(c)}>
                      Delete
                    </Button>
                  </div>
                  {results[c.id] ? <Checks result={results[c.id]!} /> : null}
                  {test.error && test.variables?.id === c.id ? <p className="text-xs text-red-700">{errorMessage(test.error)}</p> : null}
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      </Card>
      {dialog && types.data ? <ConnectorDialog open onClose={() => setDialog(null)} types={types.data.types} editing={dialog.editing} /> : null}
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => {
          remove.reset();
          setDeleting(null);
        }}
        onConfirm={() => deleting && remove.mutate({ id: deleting.id }, { onSuccess: () => setDeleting(null) })}
        title={`Delete ${deleting?.name ?? ''}?`}
        description="Pipelines that name it stop working until they pick another connector."
        confirmLabel="Delete connector"
        pending={remove.isPending}
        error={remove.error ? errorMessage(remove.error) : null}
        danger
      />
    </>
  );
}
