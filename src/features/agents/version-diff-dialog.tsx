'use client';

import { pretty } from '@/components/json-view';
import { cn } from '@/components/ui/cn';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { api } from '@/trpc/react';
import { canonical } from '@/features/editor/definition';
import { lineDiff } from './line-diff';
import type { Agent, AgentVersion, AssignedTool } from './types';

/** The configuration as a version keeps it, in one key order (stored JSON comes back in another): fields, then tools with their settings. */
function configText(c: AgentVersion['config'], settings: Record<string, Record<string, unknown>>): string {
  return pretty({
    name: c.name,
    agent_type: c.agent_type,
    description: c.description,
    model_config: { model: c.model_config.model, temperature: c.model_config.temperature, max_tokens: c.model_config.max_tokens },
    instructions: c.instructions,
    prompt_template: c.prompt_template,
    tools: c.tools.map((id) => ({ id, config: JSON.parse(canonical(settings[id] ?? {})) as unknown })),
  });
}

function currentText(a: Agent, tools: AssignedTool[]): string {
  const config = {
    name: a.name,
    agent_type: a.agent_type,
    description: a.description,
    model_config: a.model_config,
    prompt_template: a.prompt_template,
    instructions: a.instructions,
    tools: a.tools,
  };
  return configText(config, Object.fromEntries(tools.map((t) => [t.id, t.config])));
}

const LOOK = { same: 'text-slate-600', added: 'bg-emerald-50 text-emerald-800', removed: 'bg-red-50 text-red-800' } as const;
const MARK = { same: ' ', added: '+', removed: '-' } as const;

/** A line diff of a version's configuration against the agent's configuration now. */
export function VersionDiffDialog({ agentId, version, onClose }: { agentId: string; version: AgentVersion | null; onClose: () => void }) {
  const agent = api.agents.get.useQuery({ id: agentId });
  const tools = api.agents.tools.useQuery({ id: agentId });
  const lines =
    version && agent.data && tools.data ? lineDiff(configText(version.config, version.tool_settings), currentText(agent.data, tools.data.tools)) : null;
  const changes = lines?.filter((l) => l.kind !== 'same').length ?? 0;
  return (
    <Dialog
      open={version !== null}
      onClose={onClose}
      title={`Version ${version?.version ?? ''} → current configuration`}
      description={lines ? (changes ? `${changes} lines differ.` : 'No differences: the configuration is this version.') : undefined}
      className="max-w-3xl"
    >
      {lines ? (
        <pre className="overflow-x-auto rounded-md border border-slate-200 font-mono text-[11px] leading-relaxed" aria-label="Differences">
          {lines.map((l, i) => (
            <div key={i} className={cn('px-3 whitespace-pre-wrap', LOOK[l.kind])} data-kind={l.kind}>
              <span className="mr-2 text-slate-400 select-none">{MARK[l.kind]}</span>
              {l.text}
            </div>
          ))}
        </pre>
      ) : (
        <Spinner />
      )}
    </Dialog>
  );
}
