import { router } from '@/server/api/trpc';
import { get } from './get';
import { list } from './list';
import { search } from './search';

// static paths (list, search) before {nodeId}
export const catalogRouter = router({ list, search, get });
