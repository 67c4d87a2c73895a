'use client';

import { Plus, Wrench, X } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { QueryState } from '@/components/ui/query-state';
import { errorMessage } from '@/trpc/errors';
import { api } from '@/trpc/react';
import { ToolSettings } from './tool-settings';

const SELECT = 'h-8 min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-2 text-sm shadow-sm focus:border-teal-600 focus:outline-none';

/** The tools the agent may call: remove one, add one from the registry, give a built-in tool what it needs. */
export function ToolsPanel({ agentId }: { agentId: string }) {
  const utils = api.useUtils();
  const assigned = api.agents.tools.useQuery({ id: agentId });
  const all = api.tools.list.useQuery({}, { staleTime: 60_000 });
  const [picked, setPicked] = useState('');
  const refresh = () => Promise.all([utils.agents.tools.invalidate({ id: agentId }), utils.agents.get.invalidate({ id: agentId })]);
  const assign = api.agents.assign.useMutation({ onSuccess: refresh });
  const unassign = api.agents.unassign.useMutation({ onSuccess: refresh });
  const have = new Set(assigned.data?.tools.map((t) => t.id) ?? []);
  const addable = (all.data?.tools ?? []).filter((t) => !have.has(t.id));
  const error = assign.error ?? unassign.error;

  return (
    <Card>
      <div className="space-y-3 p-5">
        <div>
          <h2 className="text-base font-semibold text-slate-900">Tools</h2>
          <p className="text-xs text-slate-500">The model decides when to call them, from their descriptions.</p>
        </div>
        <QueryState
          query={assigned}
          what="the agent's tools"
          isEmpty={(d) => d.tools.length === 0}
          empty={<p className="text-sm text-slate-500">No tools: the agent answers from its model alone.</p>}
        >
          {(d) => (
            <ul className="divide-y divide-slate-100 rounded-md border border-slate-200" aria-label="Assigned tools">
              {d.tools.map((t) => (
                <li key={t.id} className="space-y-2 px-3 py-2.5" data-testid={`tool-${t.name}`}>
                  <div className="flex items-start gap-2">
                    <Wrench className="mt-0.5 size-4 shrink-0 text-slate-400" aria-hidden />
                    <div className="min-w-0 flex-1">
                      <p className="text-sm font-medium text-slate-900">
                        {t.title} <code className="text-xs font-normal text-slate-500">{t.name}</code> {t.builtin ? null : <Badge tone="teal">custom</Badge>}
                      </p>
                      <p className="line-clamp-2 text-xs text-slate-500" title={t.description}>
                        {t.description}
                      </p>
                    </div>
                    <Button
                      variant="quiet-danger"
                      size="icon"
                      aria-label={`Remove ${t.name}`}
                      title="Remove from this agent"
                      loading={unassign.isPending && unassign.variables?.toolId === t.id}
                      onClick={() => unassign.mutate({ id: agentId, toolId: t.id })}
                    >
                      {unassign.isPending && unassign.variables?.toolId === t.id ? null : <X className="size-4" aria-hidden />}
                    </Button>
                  </div>
                  <ToolSettings
                    tool={t}
                    pending={assign.isPending && assign.variables?.tool_id === t.id}
                    onSave={(config) => assign.mutate({ id: agentId, tool_id: t.id, config })}
                  />
                </li>
              ))}
            </ul>
          )}
        </QueryState>
        <form
          className="flex items-center gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (picked) assign.mutate({ id: agentId, tool_id: picked }, { onSuccess: () => setPicked('') });
          }}
        >
          <select aria-label="Tool to add" className={SELECT} value={picked} onChange={(e) => setPicked(e.target.value)} disabled={addable.length === 0}>
            <option value="">{addable.length ? 'Choose a tool…' : 'Every tool is assigned'}</option>
            {addable.map((t) => (
              <option key={t.id} value={t.id}>
                {t.title} ({t.name}){t.builtin ? '' : ' — custom'}
              </option>
            ))}
          </select>
          <Button
            type="submit"
            variant="secondary"
            size="sm"
            icon={<Plus className="size-3.5" aria-hidden />}
            disabled={!picked}
            loading={assign.isPending && !assign.variables?.config}
          >
            Add tool
          </Button>
        </form>
        {error ? <Alert>{errorMessage(error)}</Alert> : null}
      </div>
    </Card>
  );
}
