import { router } from '@/server/api/trpc';
import { create } from './create';
import { list } from './list';
import { revoke } from './revoke';

/** Settings → API keys (browser only; the REST contract has no key endpoints). */
export const keysRouter = router({ list, create, revoke });
