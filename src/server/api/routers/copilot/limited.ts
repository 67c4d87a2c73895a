import type { executeProcedure, readProcedure, writeProcedure } from '@/server/api/trpc';
import { consumeUserLimit, userLimitRefusal } from '@/server/auth/user-limits';

/** REST counts copilot requests at the edge (rest/handler.ts); the web app's tRPC calls are counted here (30/min per user). */
export function limited<P extends typeof readProcedure | typeof writeProcedure | typeof executeProcedure>(p: P): P {
  return p.use(async ({ ctx, next }) => {
    if (ctx.channel === 'app') {
      const rate = await consumeUserLimit(ctx.rt, ctx.principal!, 'copilot');
      if (!rate.allowed) throw userLimitRefusal(rate, 'copilot');
    }
    return next();
  }) as P;
}
