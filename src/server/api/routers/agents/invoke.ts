import { hasScope } from '@/server/auth/scopes';
import { publicProcedure } from '@/server/api/trpc';
import { AppError } from '@/server/errors';
import { invokeAgent } from '@/server/services/agents/chat';
import { RUN } from './errors';
import * as S from './agent.schema';

/** A key scoped to this agent (`agent/<id>:execute`) or an admin key. */
export const invoke = publicProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/agents/{id}/invoke',
      tags: S.TAGS,
      summary: 'Invoke a deployed agent (public endpoint; needs a key with scope agent/{id}:execute, or admin)',
      protect: true,
    },
    errors: ['AGENT_NOT_FOUND', 'AGENT_NOT_DEPLOYED', ...RUN],
  })
  .input(S.InvokeInput)
  .output(S.InvokeOutput)
  .mutation(({ ctx, input }) => {
    if (!ctx.principal) throw ctx.authError ?? new AppError('UNAUTHENTICATED', 'Authentication is required.');
    if (!hasScope(ctx.principal.scopes, `agent/${input.id.toLowerCase()}:execute`)) {
      throw new AppError('FORBIDDEN', `This key cannot invoke agent ${input.id}: it needs the scope agent/${input.id}:execute (or admin).`);
    }
    return invokeAgent({ ...ctx, principal: ctx.principal }, input.id, input);
  });
