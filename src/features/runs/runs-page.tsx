'use client';

import { keepPreviousData } from '@tanstack/react-query';
import { History, RefreshCw, SearchX } from 'lucide-react';
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { QueryState } from '@/components/ui/query-state';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { api } from '@/trpc/react';
import { ReprocessBar } from './reprocess-bar';
import { RunsFilters, type RunsFilterValues } from './runs-filters';
import { RunsTable } from './runs-table';
import { StatsStrip } from './stats-strip';
import { isExecutionStatus, isLive, PAGE_SIZE } from './types';
import { usePipelineNames } from './use-pipeline-names';

/** /executions: every run of the organization, newest first, filtered by ?status= and ?pipeline=, 20 a page. */
export function RunsPage() {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const rawStatus = params.get('status');
  const status = isExecutionStatus(rawStatus) ? rawStatus : null;
  const pipelineId = params.get('pipeline') || null;
  const day = (v: string | null) => (v && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : null);
  const from = day(params.get('from'));
  const to = day(params.get('to'));
  const q = params.get('q')?.trim().slice(0, 200) || null;
  const filters: RunsFilterValues = { status, pipeline: pipelineId, from, to, q };
  const page = Math.max(1, Math.floor(Number(params.get('page'))) || 1);
  const offset = (page - 1) * PAGE_SIZE;
  const { names, pipelines } = usePipelineNames();

  // whole days in the user's time zone
  const since = from ? new Date(`${from}T00:00:00`).toISOString() : undefined;
  const until = to ? new Date(new Date(`${to}T00:00:00`).getTime() + 86_400_000).toISOString() : undefined;
  const list = api.executions.list.useQuery(
    {
      status: status ?? undefined,
      pipeline_id: pipelineId ?? undefined,
      since,
      until,
      q: q ?? undefined,
      limit: PAGE_SIZE,
      offset,
    },
    {
      placeholderData: keepPreviousData,
      refetchInterval: (q) => (q.state.data?.executions.some((e) => isLive(e.status)) ? 3000 : false),
    },
  );
  const live = !!list.data?.executions.some((e) => isLive(e.status));
  const filtered = !!(status || pipelineId || from || to || q);

  function navigate(next: Partial<RunsFilterValues> & { page?: number }) {
    const search = new URLSearchParams();
    const merged = { ...filters, ...next };
    for (const key of ['status', 'pipeline', 'from', 'to', 'q'] as const) {
      const value = merged[key];
      if (value) search.set(key, value);
    }
    if (next.page && next.page > 1) search.set('page', String(next.page));
    const qs = search.toString();
    router.push(qs ? `${pathname}?${qs}` : pathname);
  }

  const total = list.data?.total_count ?? 0;
  return (
    <>
      <PageHeader
        title="Executions"
        description={[
          'Every run of your pipelines: from the editor, the API, webhooks, schedules',
          "and retries. Open a run to see each node's timing, inputs, outputs and logs.",
        ].join(' ')}
        actions={
          <Button
            variant="secondary"
            icon={<RefreshCw className={list.isFetching ? 'size-4 animate-spin' : 'size-4'} aria-hidden />}
            onClick={() => void list.refetch()}
          >
            Refresh
          </Button>
        }
      />
      <StatsStrip pipelineId={pipelineId ?? undefined} live={live} />
      <Card>
        {list.isSuccess && total === 0 && !filtered ? null : (
          <RunsFilters values={filters} pipelines={pipelines} onChange={(f) => navigate({ ...f, page: 1 })} />
        )}
        {status === 'failed' || status === 'cancelled' ? (
          <ReprocessBar status={status} pipelineId={pipelineId ?? undefined} since={since} until={until} />
        ) : null}
        <QueryState
          query={list}
          what="executions"
          isEmpty={(d) => d.total_count === 0}
          empty={
            filtered ? (
              <EmptyState
                icon={<SearchX className="size-6" aria-hidden />}
                title="No runs match these filters"
                action={
                  <Button variant="secondary" onClick={() => navigate({ status: null, pipeline: null, from: null, to: null, q: null, page: 1 })}>
                    Clear filters
                  </Button>
                }
              >
                Try another status, pipeline, date range or search text, or clear the filters to see every run.
              </EmptyState>
            ) : (
              <EmptyState
                icon={<History className="size-6" aria-hidden />}
                title="No executions yet"
                action={
                  <Link href="/pipelines" className={buttonClasses('primary')}>
                    Go to pipelines
                  </Link>
                }
              >
                A run appears here each time a pipeline runs. Open a pipeline in the editor and press{' '}
                <strong className="font-medium text-slate-700">Test run</strong>, or call{' '}
                <code className="rounded bg-slate-100 px-1 text-xs">POST /api/execute</code> with an API key. Deployed pipelines also run on their webhooks and
                schedules.
              </EmptyState>
            )
          }
        >
          {(data) =>
            data.executions.length === 0 ? (
              <div className="space-y-3 px-6 py-10 text-center text-sm text-slate-500">
                <p>This page is past the last run.</p>
                <Button variant="secondary" onClick={() => navigate({ page: 1 })}>
                  Back to the first page
                </Button>
              </div>
            ) : (
              <div className={list.isPlaceholderData ? 'opacity-60 transition-opacity' : undefined}>
                <RunsTable runs={data.executions} names={names} />
                <Pagination
                  offset={offset}
                  limit={PAGE_SIZE}
                  shown={data.executions.length}
                  total={total}
                  onChange={(o) => navigate({ page: Math.floor(o / PAGE_SIZE) + 1 })}
                />
              </div>
            )
          }
        </QueryState>
      </Card>
      {live ? (
        <p className="mt-3 flex items-center gap-1.5 text-xs text-slate-500" role="status">
          <span className="size-1.5 animate-pulse rounded-full bg-teal-500" aria-hidden />
          Some runs are under way: this list refreshes every 3 seconds.
        </p>
      ) : null}
    </>
  );
}
