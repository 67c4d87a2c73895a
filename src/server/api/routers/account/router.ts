import { z } from 'zod';
import { readProcedure, router } from '@/server/api/trpc';
import { acceptInvitation, listMyOrganizations, switchOrganization } from '@/server/services/orgs/active-org';
import { me } from './me';

/** The signed-in browser user, their organizations and the one this session acts in. */
export const accountRouter = router({
  me,
  organizations: readProcedure.query(({ ctx }) => listMyOrganizations(ctx)),
  switchOrganization: readProcedure.input(z.object({ org_id: z.string().min(1).max(200) })).mutation(({ ctx, input }) => switchOrganization(ctx, input)),
  acceptInvitation: readProcedure.input(z.object({ token: z.string().min(1).max(2000) })).mutation(({ ctx, input }) => acceptInvitation(ctx, input)),
});
