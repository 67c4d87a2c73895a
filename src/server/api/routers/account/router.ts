import { readProcedure, router } from '@/server/api/trpc';
import { whoAmI } from '@/server/services/orgs/who-am-i';

/** The signed-in browser user and their organization. */
export const accountRouter = router({
  me: readProcedure.query(({ ctx }) => whoAmI(ctx)),
});
