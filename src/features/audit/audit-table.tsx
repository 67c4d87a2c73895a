import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import { TD, TH } from '@/components/ui/table-classes';
import type { RouterOutputs } from '@/trpc/react';

export type AuditEvent = RouterOutputs['audit']['list']['events'][number];

/** Where an entry's object lives in the app, when it has a page. */
const OBJECT_PAGE: Record<string, (id: string) => string> = {
  execution: (id) => `/executions/${id}`,
  pipeline: (id) => `/pipelines/${id}`,
  agent: (id) => `/agents/${id}`,
};

function ObjectCell({ e }: { e: AuditEvent }) {
  const { type, id, name } = e.object;
  const page = type && id ? OBJECT_PAGE[type] : undefined;
  const label = name ?? id ?? '—';
  return (
    <div>
      <span className="text-xs text-slate-500">{type ?? ''}</span>{' '}
      {page && id ? (
        <Link href={page(id)} className="font-medium text-teal-700 hover:underline">
          {label}
        </Link>
      ) : (
        <span className="font-medium text-slate-800">{label}</span>
      )}
    </div>
  );
}

function Detail({ detail }: { detail: AuditEvent['detail'] }) {
  const entries = Object.entries(detail);
  if (!entries.length) return null;
  return <p className="mt-0.5 text-xs text-slate-500">{entries.map(([k, v]) => `${k.replaceAll('_', ' ')}: ${String(v)}`).join(' · ')}</p>;
}

/** The entries, newest first: when, who (and from where), what, to which object. */
export function AuditTable({ events }: { events: AuditEvent[] }) {
  return (
    <table className="min-w-full divide-y divide-slate-200" aria-label="Audit log">
      <thead className="bg-slate-50">
        <tr>
          <th className={TH}>Time</th>
          <th className={TH}>Who</th>
          <th className={TH}>Action</th>
          <th className={TH}>Object</th>
          <th className={TH}>From</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {events.map((e) => (
          <tr key={e.id}>
            <td className={`${TD} whitespace-nowrap`} title={e.at}>
              {new Date(e.at).toLocaleString()}
            </td>
            <td className={TD}>
              <span className="font-medium text-slate-800">{e.actor.name ?? e.actor.id ?? 'unknown'}</span>
              <span className="block text-xs text-slate-500">{e.actor.type === 'api-key' ? 'API key' : 'user'}</span>
            </td>
            <td className={TD}>
              <span className="font-mono text-xs text-slate-800">{e.action}</span> {e.outcome === 'failure' ? <Badge tone="red">failed</Badge> : null}
              <Detail detail={e.detail} />
            </td>
            <td className={TD}>
              <ObjectCell e={e} />
            </td>
            <td className={TD}>
              <span className="font-mono text-xs">{e.address ?? '—'}</span>
              <span className="block text-xs text-slate-500">{e.channel === 'app' ? 'web app' : e.channel === 'api' ? 'REST API' : ''}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
