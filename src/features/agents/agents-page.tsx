'use client';

import { Bot, Plus } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { DataTable } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { QueryState } from '@/components/ui/query-state';
import { RelativeTime } from '@/components/ui/relative-time';
import { TD } from '@/components/ui/table-classes';
import { errorMessage } from '@/trpc/errors';
import { api } from '@/trpc/react';
import { AgentStatusBadge } from './agent-status-badge';
import { TemplateGallery } from './template-gallery';

/** /agents: the organization's agents, and the base templates to start one from. */
export function AgentsPage() {
  const router = useRouter();
  const utils = api.useUtils();
  const list = api.agents.list.useQuery({ limit: 100, offset: 0 });
  const create = api.agents.create.useMutation({
    onSuccess: (a) => {
      void utils.agents.list.invalidate();
      router.push(`/agents/${a.id}`);
    },
    onError: (e) => toast.error(errorMessage(e)),
  });
  const newButton = (
    <Button icon={<Plus className="size-4" aria-hidden />} loading={create.isPending} onClick={() => create.mutate({ name: 'New agent' })}>
      New agent
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Agents"
        description={[
          'Agents answer with a language model, the instructions you give them and tools that read FHIR servers, parse HL7, look',
          'up codes or run your pipelines. Try one in its playground, then deploy it to call it from other systems and pipelines.',
        ].join(' ')}
        actions={newButton}
      />
      <div className="space-y-8">
        <Card>
          <QueryState
            query={list}
            what="agents"
            isEmpty={(d) => d.agents.length === 0}
            empty={
              <EmptyState icon={<Bot className="size-6" aria-hidden />} title="No agents yet">
                Start from one of the templates below (the HL7 troubleshooter answers straight away with the offline model), or create an empty agent with New
                agent.
              </EmptyState>
            }
          >
            {(d) => (
              <DataTable
                label="Agents"
                columns={[{ header: 'Name' }, { header: 'Type' }, { header: 'Status' }, { header: 'Model' }, { header: 'Updated' }]}
                rows={d.agents}
                row={(a) => (
                  <tr key={a.id} className="hover:bg-slate-50/60">
                    <td className="max-w-sm px-4 py-3">
                      <Link href={`/agents/${a.id}`} className="block truncate text-sm font-medium text-slate-900 hover:text-teal-700 hover:underline">
                        {a.name}
                      </Link>
                      {a.description ? (
                        <p className="truncate text-xs text-slate-500" title={a.description}>
                          {a.description}
                        </p>
                      ) : null}
                    </td>
                    <td className={TD}>
                      <Badge>{a.agent_type}</Badge>
                    </td>
                    <td className={TD}>
                      <AgentStatusBadge status={a.status} />
                    </td>
                    <td className={`${TD} font-mono text-xs`}>{a.model_config.model}</td>
                    <td className={`${TD} whitespace-nowrap`}>
                      <RelativeTime iso={a.updated_at} />
                    </td>
                  </tr>
                )}
              />
            )}
          </QueryState>
        </Card>
        <TemplateGallery />
      </div>
    </>
  );
}
