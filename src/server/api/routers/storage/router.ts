import { z } from 'zod';
import { adminProcedure, readProcedure, router } from '@/server/api/trpc';
import { pruneNow } from '@/server/services/retention/prune-now';
import { storageReport } from '@/server/services/retention/storage';
import * as S from './storage.schema';

const report = readProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/storage',
      tags: S.TAGS,
      summary: 'The storage each pipeline’s runs use, their retention, and what the pruner removed',
      description:
        'Per pipeline with runs: exact run counts by payload state, an estimate of the bytes they use, the retention that applies, ' +
        'and what the pruner removed in the last 7 days; and the pruner’s latest pass.',
      protect: true,
    },
  })
  .input(z.object({}))
  .output(S.StorageReport)
  .query(({ ctx }) => storageReport(ctx));

const prune = adminProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/storage/prune',
      tags: S.TAGS,
      summary: 'Run the pruner now and wait for it (up to 50 s)',
      description:
        'Queues a retention pass (or joins the one queued and not yet started; one runs at a time: a pass already running, which may have ' +
        'passed this organization’s runs, is waited for and a new one queued) and answers when it ends, with what it ' +
        'removed of this organization’s runs; after 50 s it answers with the pass still running. Needs the admin scope.',
      protect: true,
    },
    errors: ['SERVICE_UNAVAILABLE'],
  })
  .input(z.object({}).optional())
  .output(S.PruneRun)
  .mutation(({ ctx }) => pruneNow(ctx));

export const storageRouter = router({ report, prune });
