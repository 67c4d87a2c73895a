'use client';

import type { WidgetProps } from '@rjsf/utils';
import Link from 'next/link';
import { api } from '@/trpc/react';
import { cn } from '@/components/ui/cn';

/**
 * A node config field naming a connector (descriptor hint `widget: 'connector'`): a select of the
 * organization's connectors of the field's type (`x-connector-type`), by name, and a way to create one.
 */
export function ConnectorWidget({ id, value, onChange, options, disabled, readonly, schema }: WidgetProps) {
  const type = (options.connectorType ?? (schema as { 'x-connector-type'?: string })['x-connector-type']) as
    'fhir' | 'hl7-mllp' | 'http' | 'postgres' | undefined;
  const list = api.connectors.list.useQuery({ type, limit: 100, offset: 0 }, { staleTime: 30_000 });
  const connectors = list.data?.connectors ?? [];
  const current = typeof value === 'string' ? value : '';
  const known = connectors.some((c) => c.name === current || c.id === current);
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
        <option value="">{list.isPending ? 'Loading connectors…' : `Choose a ${type ?? ''} connector`}</option>
        {current && !known && !list.isPending ? <option value={current}>{current} (not found)</option> : null}
        {connectors.map((c) => (
          // a config may name its connector by id (as the API allows) or by name (what this select writes)
          <option key={c.id} value={c.id === current ? c.id : c.name}>
            {c.name} — {c.endpoint}
          </option>
        ))}
      </select>
      <p className="text-[11px] text-slate-500">
        {connectors.length === 0 && !list.isPending ? 'No connector of this type yet. ' : ''}
        <Link href="/settings/connectors" target="_blank" className="text-teal-700 hover:underline">
          Manage connectors
        </Link>
      </p>
    </div>
  );
}
