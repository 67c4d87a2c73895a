import { adminProcedure } from '@/server/api/trpc';
import { createApiKey } from '@/server/services/keys/api-keys';
import { CreateKeyInput } from './key.schema';

export const create = adminProcedure.input(CreateKeyInput).mutation(({ ctx, input }) => createApiKey(ctx, input));
