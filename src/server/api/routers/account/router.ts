import { router } from '@/server/api/trpc';
import { me } from './me';

/** The signed-in browser user and their organization. */
export const accountRouter = router({ me });
