import { executeProcedure } from '@/server/api/trpc';
import { consumeUserLimit, userLimitRefusal } from '@/server/auth/user-limits';

/** Agent chat, counted against the caller's chat limit: REST counts it at the edge (rest/handler.ts), the web app's tRPC calls here. */
export const chatLimited = executeProcedure.use(async ({ ctx, next }) => {
  if (ctx.channel === 'app') {
    const rate = await consumeUserLimit(ctx.rt, ctx.principal, 'chat');
    if (!rate.allowed) throw userLimitRefusal(rate, 'chat');
  }
  return next();
});
