'use client';

import { Pencil, Rocket, Square, Trash2 } from 'lucide-react';
import Link from 'next/link';
import { Button } from '@/components/ui/button';
import { RelativeTime } from '@/components/ui/relative-time';
import { StatusBadge } from './status-badge';
import type { PipelineSummary } from './types';
import { useDeployActions } from './use-pipeline-actions';
import { DataTable } from '@/components/ui/data-table';

interface Props {
  pipelines: PipelineSummary[];
  onRename: (p: PipelineSummary) => void;
  onDelete: (p: PipelineSummary) => void;
}

export function PipelinesTable({ pipelines, onRename, onDelete }: Props) {
  return (
    <DataTable
      label="Pipelines"
      columns={[
        { header: 'Name' },
        { header: 'Status' },
        { header: 'Version' },
        { header: 'Nodes' },
        { header: 'Updated' },
        { header: 'Actions', srOnly: true, align: 'right' },
      ]}
      rows={pipelines}
      row={(p) => <PipelineRow key={p.id} pipeline={p} onRename={onRename} onDelete={onDelete} />}
    />
  );
}

function PipelineRow({ pipeline: p, onRename, onDelete }: { pipeline: PipelineSummary } & Omit<Props, 'pipelines'>) {
  const { deploy, undeploy } = useDeployActions();
  const deployed = p.status === 'deployed';
  return (
    <tr className="group hover:bg-slate-50/60">
      <td className="max-w-sm px-4 py-3">
        <Link
          href={`/pipelines/${p.id}`}
          className="block truncate text-sm font-medium text-slate-900 hover:text-teal-700 hover:underline"
          title="Open in the editor"
        >
          {p.name}
        </Link>
        {p.description ? (
          <p className="truncate text-xs text-slate-500" title={p.description}>
            {p.description}
          </p>
        ) : null}
      </td>
      <td className="px-4 py-3">
        <StatusBadge status={p.status} />
      </td>
      <td className="px-4 py-3 text-sm whitespace-nowrap text-slate-600 tabular-nums">
        v{p.version}
        {deployed && p.deployed_version !== null && p.deployed_version !== p.version ? (
          <span className="ml-1.5 text-xs text-amber-700" title={`Production runs v${p.deployed_version} until v${p.version} is published`}>
            v{p.deployed_version} live
          </span>
        ) : null}
      </td>
      <td className="px-4 py-3 text-sm text-slate-600 tabular-nums">{p.node_count}</td>
      <td className="px-4 py-3 text-sm whitespace-nowrap text-slate-600">
        <RelativeTime iso={p.updated_at} />
      </td>
      <td className="px-4 py-3">
        <div className="flex items-center justify-end gap-1">
          {deployed ? (
            <Button
              variant="secondary"
              size="sm"
              icon={<Square className="size-3.5" aria-hidden />}
              loading={undeploy.isPending}
              onClick={() => undeploy.mutate({ id: p.id })}
              aria-label={`Undeploy ${p.name}`}
            >
              Undeploy
            </Button>
          ) : (
            <Button
              variant="secondary"
              size="sm"
              icon={<Rocket className="size-3.5" aria-hidden />}
              loading={deploy.isPending}
              onClick={() => deploy.mutate({ id: p.id })}
              aria-label={`Deploy ${p.name}`}
            >
              Deploy
            </Button>
          )}
          <Button variant="ghost" size="icon" onClick={() => onRename(p)} aria-label={`Rename ${p.name}`} title="Rename">
            <Pencil className="size-4" aria-hidden />
          </Button>
          <Button
            variant={deployed ? 'ghost' : 'quiet-danger'}
            size="icon"
            onClick={() => onDelete(p)}
            aria-label={`Delete ${p.name}`}
            title={deployed ? 'Deployed pipelines cannot be deleted: undeploy first' : 'Delete'}
            className={deployed ? 'opacity-40 hover:opacity-80' : undefined}
          >
            <Trash2 className="size-4" aria-hidden />
          </Button>
        </div>
      </td>
    </tr>
  );
}
