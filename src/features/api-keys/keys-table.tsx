'use client';

import { Ban } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { RelativeTime } from '@/components/ui/relative-time';
import { ScopeBadges } from './scope-badges';
import type { ApiKey } from './types';
import { TH, TD } from '@/components/ui/table-classes';


export function KeysTable({ keys, onRevoke }: { keys: ApiKey[]; onRevoke: (key: ApiKey) => void }) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full divide-y divide-slate-200" aria-label="API keys">
        <thead className="bg-slate-50/80">
          <tr>
            <th scope="col" className={TH}>Name</th>
            <th scope="col" className={TH}>Key</th>
            <th scope="col" className={TH}>Scopes</th>
            <th scope="col" className={TH}>Created</th>
            <th scope="col" className={TH}>Last used</th>
            <th scope="col" className={TH}>Status</th>
            <th scope="col" className={`${TH} text-right`}>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {keys.map((k) => {
            const revoked = k.revoked_at !== null;
            return (
              <tr key={k.id} className={revoked ? 'bg-slate-50/50' : undefined}>
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
                    <Button
                      variant="ghost-danger"
                      size="sm"
                      icon={<Ban className="size-3.5" aria-hidden />}
                      onClick={() => onRevoke(k)}
                      aria-label={`Revoke ${k.name}`}
                    >
                      Revoke
                    </Button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
