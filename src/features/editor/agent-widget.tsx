'use client';

import type { WidgetProps } from '@rjsf/utils';
import Link from 'next/link';
import { api } from '@/trpc/react';
import { cn } from '@/components/ui/cn';

/**
 * A node config field naming an agent (descriptor hint `widget: 'agent'`): a select of the organization's
 * agents, each with its status (a real run needs it deployed), and a link to the Agents page.
 */
export function AgentWidget({ id, value, onChange, disabled, readonly }: WidgetProps) {
  const list = api.agents.list.useQuery({ limit: 100, offset: 0 }, { staleTime: 30_000 });
  const agents = list.data?.agents ?? [];
  const current = typeof value === 'string' ? value : '';
  const chosen = agents.find((a) => a.id === current);
  return (
    <div className="space-y-1">
      <select
        id={id}
        value={current}
        disabled={disabled || readonly}
        onChange={(e) => onChange(e.target.value || undefined)}
        className={cn(
          'block w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-[13px]',
          'shadow-sm focus:border-teal-600 focus:ring-2 focus:ring-teal-600/20 focus:outline-none',
        )}
      >
        <option value="">{list.isPending ? 'Loading agents…' : 'Choose an agent'}</option>
        {current && !chosen && !list.isPending ? <option value={current}>{current} (not found)</option> : null}
        {agents.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name} — {a.status}
          </option>
        ))}
      </select>
      <p className="text-[11px] text-slate-500">
        {chosen && chosen.status !== 'deployed' ? 'Not deployed: it runs in test runs only. ' : ''}
        {agents.length === 0 && !list.isPending ? 'No agent yet. ' : ''}
        <Link href={chosen ? `/agents/${chosen.id}` : '/agents'} target="_blank" className="text-teal-700 hover:underline">
          {chosen ? 'Open agent' : 'Manage agents'}
        </Link>
      </p>
    </div>
  );
}
