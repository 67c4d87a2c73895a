import { adminProcedure } from '@/server/api/trpc';
import { revokeApiKey } from '@/server/services/keys/api-keys';
import { KeyId } from './key.schema';

export const revoke = adminProcedure
  .meta({ audit: { action: 'key.revoke' } })
  .input(KeyId)
  .mutation(({ ctx, input }) => revokeApiKey(ctx, input.id));
