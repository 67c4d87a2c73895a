import { router } from '@/server/api/trpc';
import { dashboard } from './dashboard';
import { execute } from './execute';
import { get } from './get';
import { list } from './list';
import { reprocess, reprocessGet } from './reprocess';
import { retry } from './retry';
import { stats } from './stats';
import { stepAdvance, stepStart } from './step';

export const executionsRouter = router({ execute, retry, stepStart, stepAdvance, list, get, stats, dashboard, reprocess, reprocessGet });
