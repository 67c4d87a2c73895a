'use client';

import { keepPreviousData } from '@tanstack/react-query';
import { Plus, Upload, Workflow } from 'lucide-react';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { QueryState } from '@/components/ui/query-state';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { api } from '@/trpc/react';
import { ImportDialog } from '@/features/transfer/import-dialog';
import { CreatePipelineDialog } from './create-pipeline-dialog';
import { DeletePipelineDialog } from './delete-pipeline-dialog';
import { PipelinesTable } from './pipelines-table';
import { RenamePipelineDialog } from './rename-pipeline-dialog';
import { PAGE_SIZE, type PipelineSummary } from './types';

/** /pipelines: the organization's pipelines, newest first, 20 to a page (?page=N). */
export function PipelinesPage() {
  const router = useRouter();
  const pathname = usePathname();
  const page = Math.max(1, Math.floor(Number(useSearchParams().get('page'))) || 1);
  const offset = (page - 1) * PAGE_SIZE;
  const list = api.pipelines.list.useQuery({ limit: PAGE_SIZE, offset }, { placeholderData: keepPreviousData });
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const [renaming, setRenaming] = useState<PipelineSummary | null>(null);
  const [deleting, setDeleting] = useState<PipelineSummary | null>(null);

  function goTo(newOffset: number) {
    const n = Math.floor(newOffset / PAGE_SIZE) + 1;
    router.push(n === 1 ? pathname : `${pathname}?page=${n}`);
  }

  // the page ran empty (its last rows were deleted): show the last page that has rows
  const total = list.data?.total_count ?? 0;
  const pageEmpty = list.isSuccess && !list.isPlaceholderData && list.data.pipelines.length === 0;
  useEffect(() => {
    if (pageEmpty && offset > 0) goTo(total > 0 ? Math.floor((total - 1) / PAGE_SIZE) * PAGE_SIZE : 0);
  }, [pageEmpty, offset, total]);

  const newButton = (
    <div className="flex gap-2">
      <Button variant="secondary" icon={<Upload className="size-4" aria-hidden />} onClick={() => setImporting(true)}>
        Import
      </Button>
      <Button icon={<Plus className="size-4" aria-hidden />} onClick={() => setCreating(true)}>
        New pipeline
      </Button>
    </div>
  );

  return (
    <>
      <PageHeader
        title="Pipelines"
        description={
          'Pipelines move and transform clinical data: HL7v2, FHIR, X12 and CSV in, validated records out. ' +
          'Deploy a pipeline to let its triggers and schedules run it.'
        }
        actions={total > 0 ? newButton : undefined}
      />
      <Card>
        <QueryState
          query={list}
          what="pipelines"
          isEmpty={(d) => d.total_count === 0}
          empty={
            <EmptyState icon={<Workflow className="size-6" aria-hidden />} title="No pipelines yet" action={newButton}>
              A pipeline connects nodes (sources, transforms, validators, destinations) into a flow. Create your first one with{' '}
              <strong className="font-medium text-slate-700">New pipeline</strong>, give it a name, then deploy it when it is ready. API clients can also create
              pipelines with <code className="text-xs">POST /api/pipelines</code>.
            </EmptyState>
          }
        >
          {(data) => (
            <div className={list.isPlaceholderData ? 'opacity-60 transition-opacity' : undefined}>
              <PipelinesTable pipelines={data.pipelines} onRename={setRenaming} onDelete={setDeleting} />
              <Pagination offset={offset} limit={PAGE_SIZE} shown={data.pipelines.length} total={total} onChange={goTo} />
            </div>
          )}
        </QueryState>
      </Card>
      <ImportDialog open={importing} onClose={() => setImporting(false)} />
      <CreatePipelineDialog open={creating} onClose={() => setCreating(false)} onCreated={() => goTo(0)} />
      <RenamePipelineDialog pipeline={renaming} onClose={() => setRenaming(null)} />
      <DeletePipelineDialog key={deleting?.id ?? 'none'} pipeline={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}
