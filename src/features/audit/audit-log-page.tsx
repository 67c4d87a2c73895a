'use client';

import { Download, ScrollText } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { TextField } from '@/components/ui/field';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { QueryState } from '@/components/ui/query-state';
import { appError } from '@/trpc/errors';
import { api } from '@/trpc/react';
import { AuditTable } from './audit-table';

const LIMIT = 50;

/** The action filter: everything, one kind of object, or the reads of run payloads alone. */
const ACTIONS = [
  ['', 'All actions'],
  ['execution.read', 'Reads of run data'],
  ['execution', 'Runs (reads, retries)'],
  ['session', 'Sign-ins'],
  ['pipeline', 'Pipelines'],
  ['agent', 'Agents'],
  ['connector', 'Connectors'],
  ['key', 'API keys'],
  ['member', 'Members'],
  ['audit', 'Audit exports'],
] as const;

interface Filters {
  action: string;
  actor: string;
  object_id: string;
  outcome: '' | 'success' | 'failure';
}

function queryOf(f: Filters) {
  return {
    action: f.action || undefined,
    actor: f.actor.trim() || undefined,
    object_id: f.object_id.trim() || undefined,
    outcome: f.outcome || undefined,
  };
}

function exportHref(f: Filters): string {
  const params = new URLSearchParams(Object.entries(queryOf(f)).filter((e): e is [string, string] => e[1] !== undefined));
  const qs = params.toString();
  return `/api/audit-events/export${qs ? `?${qs}` : ''}`;
}

const SELECT =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-teal-600 focus:outline-none';

/** /settings/audit-log: who did what in the organization — and who read which run's patient data (admins only). */
export function AuditLogPage() {
  const [filters, setFilters] = useState<Filters>({ action: '', actor: '', object_id: '', outcome: '' });
  const [offset, setOffset] = useState(0);
  const list = api.audit.list.useQuery({ ...queryOf(filters), limit: LIMIT, offset });
  const forbidden = appError(list.error)?.code === 'FORBIDDEN';
  const set = (change: Partial<Filters>) => {
    setFilters((f) => ({ ...f, ...change }));
    setOffset(0);
  };

  return (
    <>
      <PageHeader
        title="Audit log"
        description={
          'Who signed in, changed pipelines, agents, connectors, keys and members, retried runs, and read the data of a run — ' +
          'from the web app or the REST API. Entries cannot be changed or deleted; they are kept for six years by default.'
        }
        actions={
          forbidden ? undefined : (
            <a href={exportHref(filters)} className={buttonClasses('secondary')} download>
              <Download className="size-4" aria-hidden />
              Export FHIR AuditEvents
            </a>
          )
        }
      />
      {forbidden ? (
        <Card className="p-6">
          <Alert tone="info" title="Only organization admins can see the audit log">
            Ask an admin of your organization if you need to know who did something.
          </Alert>
        </Card>
      ) : (
        <Card>
          <form className="grid gap-3 border-b border-slate-200 p-4 sm:grid-cols-4" onSubmit={(e) => e.preventDefault()} aria-label="Filter the audit log">
            <label className="block text-sm font-medium text-slate-700">
              Action
              <select className={SELECT} value={filters.action} onChange={(e) => set({ action: e.target.value })}>
                {ACTIONS.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
            <TextField label="Who" placeholder="email, key name or id" value={filters.actor} onChange={(e) => set({ actor: e.target.value })} />
            <TextField
              label="Object id"
              placeholder="an execution or pipeline id"
              value={filters.object_id}
              onChange={(e) => set({ object_id: e.target.value })}
            />
            <label className="block text-sm font-medium text-slate-700">
              Outcome
              <select className={SELECT} value={filters.outcome} onChange={(e) => set({ outcome: e.target.value as Filters['outcome'] })}>
                <option value="">Any</option>
                <option value="success">Succeeded</option>
                <option value="failure">Failed</option>
              </select>
            </label>
          </form>
          <QueryState
            query={list}
            what="the audit log"
            isEmpty={(d) => d.events.length === 0}
            empty={
              <EmptyState icon={<ScrollText className="size-6" aria-hidden />} title="No entries match">
                Entries appear as people and keys act: open a run&apos;s data, save or deploy a pipeline, or sign in. Clear the filters to see everything.
              </EmptyState>
            }
          >
            {(data) => (
              <>
                <div className="overflow-x-auto">
                  <AuditTable events={data.events} />
                </div>
                <Pagination offset={offset} limit={LIMIT} shown={data.events.length} total={data.total_count} onChange={setOffset} />
              </>
            )}
          </QueryState>
        </Card>
      )}
    </>
  );
}
