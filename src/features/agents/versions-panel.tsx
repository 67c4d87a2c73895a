'use client';

import { GitCompare, History } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { QueryState } from '@/components/ui/query-state';
import { RelativeTime } from '@/components/ui/relative-time';
import { errorMessage } from '@/trpc/errors';
import { api } from '@/trpc/react';
import type { Agent, AgentVersion } from './types';
import { VersionDiffDialog } from './version-diff-dialog';
import { cn } from '@/components/ui/cn';

/** Snapshots of the agent's configuration: save one with a note, compare one with the configuration now. */
export function VersionsPanel({ agent }: { agent: Agent }) {
  const utils = api.useUtils();
  const versions = api.agents.versions.useQuery({ id: agent.id });
  const [note, setNote] = useState('');
  const [comparing, setComparing] = useState<AgentVersion | null>(null);
  const snapshot = api.agents.snapshot.useMutation({
    onSuccess: (v) => {
      setNote('');
      toast.success(`Version ${v.version} saved`);
      void utils.agents.versions.invalidate({ id: agent.id });
      void utils.agents.get.invalidate({ id: agent.id });
    },
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    snapshot.mutate({ id: agent.id, note: note.trim() || undefined });
  }

  return (
    <Card>
      <div className="space-y-3 p-5">
        <div>
          <h2 className="text-base font-semibold text-slate-900">Versions</h2>
          <p className="text-xs text-slate-500">A version keeps the whole configuration, tools and their settings included. Deploying saves one too.</p>
        </div>
        <form onSubmit={submit} className="flex items-center gap-2">
          <input
            aria-label="Version note"
            value={note}
            onChange={(e) => setNote(e.target.value)}
            maxLength={500}
            placeholder="What changed (optional)"
            className={cn(
              'h-8 min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-2.5 text-sm',
              'shadow-sm placeholder:text-slate-400 focus:border-teal-600 focus:outline-none',
            )}
          />
          <Button type="submit" size="sm" variant="secondary" loading={snapshot.isPending}>
            Save version
          </Button>
        </form>
        {snapshot.error ? <Alert>{errorMessage(snapshot.error)}</Alert> : null}
        <QueryState
          query={versions}
          what="versions"
          isEmpty={(d) => d.versions.length === 0}
          empty={<p className="text-sm text-slate-500">No versions yet.</p>}
        >
          {(d) => (
            <ol className="max-h-72 divide-y divide-slate-100 overflow-y-auto rounded-md border border-slate-200" aria-label="Versions">
              {d.versions.map((v) => (
                <li key={v.version} className="flex items-center gap-2 px-3 py-2" data-testid={`agent-version-${v.version}`}>
                  <History className="size-4 shrink-0 text-slate-300" aria-hidden />
                  <div className="min-w-0 flex-1">
                    <p className="text-sm font-medium text-slate-800">Version {v.version}</p>
                    <p className="truncate text-xs text-slate-500">
                      {v.note || 'No note'} · <RelativeTime iso={v.created_at} />
                    </p>
                  </div>
                  <Button
                    variant="ghost"
                    size="sm"
                    icon={<GitCompare className="size-3.5" aria-hidden />}
                    onClick={() => setComparing(v)}
                    aria-label={`Compare version ${v.version} with the current configuration`}
                  >
                    Diff
                  </Button>
                </li>
              ))}
            </ol>
          )}
        </QueryState>
      </div>
      <VersionDiffDialog agentId={agent.id} version={comparing} onClose={() => setComparing(null)} />
    </Card>
  );
}
