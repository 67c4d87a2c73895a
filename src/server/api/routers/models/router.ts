import { router } from '@/server/api/trpc';
import { list } from './list';

export const modelsRouter = router({ list });
