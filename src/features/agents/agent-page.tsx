'use client';

import { ArrowLeft } from 'lucide-react';
import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import { PageHeader } from '@/components/ui/page-header';
import { QueryState } from '@/components/ui/query-state';
import { api } from '@/trpc/react';
import { AgentStatusBadge } from './agent-status-badge';
import { useDeploy } from './deploy-controls';
import { InvokePanel } from './invoke-panel';
import { Playground } from './playground/playground';
import { SettingsPanel } from './settings-panel';
import { ToolsPanel } from './tools-panel';
import type { Agent } from './types';
import { VersionsPanel } from './versions-panel';

function AgentView({ agent }: { agent: Agent }) {
  const deploy = useDeploy(agent);
  return (
    <>
      <Link href="/agents" className="mb-3 inline-flex items-center gap-1 text-sm text-slate-500 hover:text-teal-700">
        <ArrowLeft className="size-3.5" aria-hidden /> Agents
      </Link>
      <PageHeader
        title={agent.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <AgentStatusBadge status={agent.status} />
            <Badge>{agent.agent_type}</Badge>
            <code className="text-xs text-slate-500">{agent.model_config.model}</code>
            {agent.version ? <span className="text-xs text-slate-500">· version {agent.version}</span> : null}
          </span>
        }
        actions={deploy.button}
      />
      {deploy.error ? <div className="-mt-3 mb-5">{deploy.error}</div> : null}
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
        <div className="space-y-6">
          <SettingsPanel agent={agent} />
          <ToolsPanel agentId={agent.id} />
          <VersionsPanel agent={agent} />
          <InvokePanel agent={agent} />
        </div>
        <div className="lg:sticky lg:top-6">
          <Playground agentId={agent.id} disabledReason={agent.status === 'inactive' ? 'This agent is inactive: it does not chat.' : null} />
        </div>
      </div>
    </>
  );
}

/** /agents/{id}: the agent's configuration, tools, versions and public invocation, beside a chat playground. */
export function AgentPage({ id }: { id: string }) {
  const agent = api.agents.get.useQuery({ id });
  return (
    <QueryState query={agent} what="the agent">
      {(a) => <AgentView agent={a} />}
    </QueryState>
  );
}
