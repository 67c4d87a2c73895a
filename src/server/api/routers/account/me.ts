import { readProcedure } from '@/server/api/trpc';
import { whoAmI } from '@/server/services/orgs/who-am-i';

export const me = readProcedure.query(({ ctx }) => whoAmI(ctx));
