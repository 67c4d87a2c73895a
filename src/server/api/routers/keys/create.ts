import { adminProcedure } from '@/server/api/trpc';
import { createApiKey } from '@/server/services/keys/api-keys';
import { CreateKeyInput } from './key.schema';

export const create = adminProcedure
  .meta({ audit: { action: 'key.create', detail: (i) => ({ scopes: (i?.scopes as string[] | undefined)?.join(' ') ?? null }) } })
  .input(CreateKeyInput)
  .mutation(({ ctx, input }) => createApiKey(ctx, input));
