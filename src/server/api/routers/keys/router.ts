import { z } from 'zod';
import { adminProcedure, router } from '@/server/api/trpc';
import { isValidScope } from '@/server/auth/scopes';
import { createApiKey, listApiKeys, revokeApiKey } from '@/server/services/keys/api-keys';

const Scope = z.string().refine(isValidScope, 'scopes are admin, read, write, execute or agent/<uuid>:execute');

/** Settings → API keys (browser only; the REST contract has no key endpoints). */
export const keysRouter = router({
  list: adminProcedure.query(({ ctx }) => listApiKeys(ctx)),
  create: adminProcedure
    .input(z.object({ name: z.string().trim().min(1).max(100), scopes: z.array(Scope).min(1).max(50) }))
    .mutation(({ ctx, input }) => createApiKey(ctx, input)),
  revoke: adminProcedure.input(z.object({ id: z.string() })).mutation(({ ctx, input }) => revokeApiKey(ctx, input.id)),
});
