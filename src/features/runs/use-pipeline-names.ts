'use client';

import { useMemo } from 'react';
import { api } from '@/trpc/react';

/** The organization's pipelines by id (the first 100), to name the pipeline of each run. */
export function usePipelineNames() {
  const list = api.pipelines.list.useQuery({ limit: 100, offset: 0 }, { staleTime: 60_000 });
  const names = useMemo(() => new Map((list.data?.pipelines ?? []).map((p) => [p.id, p.name])), [list.data]);
  return { names, pipelines: list.data?.pipelines ?? [], loaded: list.isSuccess };
}
