import type { RouterOutputs } from '@/trpc/react';

export type PipelineSummary = RouterOutputs['pipelines']['list']['pipelines'][number];

export const PAGE_SIZE = 20;
