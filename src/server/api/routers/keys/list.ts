import { adminProcedure } from '@/server/api/trpc';
import { listApiKeys } from '@/server/services/keys/api-keys';

export const list = adminProcedure.query(({ ctx }) => listApiKeys(ctx));
