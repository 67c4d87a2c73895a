'use client';

import { Ban } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { RelativeTime } from '@/components/ui/relative-time';
import { ScopeBadges } from './scope-badges';
import type { ApiKey } from './types';
import { DataTable } from '@/components/ui/data-table';
import { TD } from '@/components/ui/table-classes';

export function KeysTable({ keys, onRevoke }: { keys: ApiKey[]; onRevoke: (key: ApiKey) => void }) {
  return (
    <DataTable
      label="API keys"
      columns={[
        { header: 'Name' },
        { header: 'Key' },
        { header: 'Scopes' },
        { header: 'Created' },
        { header: 'Last used' },
        { header: 'Status' },
        { header: 'Actions', srOnly: true, align: 'right' },
      ]}
      rows={keys}
      row={(k) => <KeyRow key={k.id} apiKey={k} onRevoke={onRevoke} />}
    />
  );
}

function KeyRow({ apiKey: k, onRevoke }: { apiKey: ApiKey; onRevoke: (key: ApiKey) => void }) {
  const revoked = k.revoked_at !== null;
  return (
    <tr className={revoked ? 'bg-slate-50/50' : undefined}>
      <td className={`${TD} font-medium ${revoked ? 'text-slate-400 line-through' : 'text-slate-900'}`}>{k.name}</td>
      <td className={`${TD} font-mono text-xs whitespace-nowrap`}>{k.prefix}…</td>
      <td className={TD}>
        <ScopeBadges scopes={k.scopes} />
      </td>
      <td className={`${TD} whitespace-nowrap`}>
        <RelativeTime iso={k.created_at} />
      </td>
      <td className={`${TD} whitespace-nowrap`}>
        <RelativeTime iso={k.last_used_at} fallback="Never" />
      </td>
      <td className={`${TD} whitespace-nowrap`}>
        {revoked ? (
          <Badge tone="red">
            Revoked&nbsp;
            <RelativeTime iso={k.revoked_at} />
          </Badge>
        ) : (
          <Badge tone="green" dot>
            Active
          </Badge>
        )}
      </td>
      <td className={`${TD} text-right`}>
        {revoked ? null : (
          <Button variant="ghost-danger" size="sm" icon={<Ban className="size-3.5" aria-hidden />} onClick={() => onRevoke(k)} aria-label={`Revoke ${k.name}`}>
            Revoke
          </Button>
        )}
      </td>
    </tr>
  );
}
