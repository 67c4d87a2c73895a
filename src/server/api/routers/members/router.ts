import { z } from 'zod';
import { adminProcedure, readProcedure, router } from '@/server/api/trpc';
import { inviteMember, listMembers, removeMember, setMemberRole } from '@/server/services/orgs/members';

const Role = z.enum(['admin', 'member', 'viewer']);
const UserId = z.object({ user_id: z.string().min(1).max(200) });

/** Settings → Members (browser only): who is in the organization, their roles, invitations. */
export const membersRouter = router({
  list: readProcedure.query(({ ctx }) => listMembers(ctx)),
  setRole: adminProcedure
    .meta({ audit: { action: 'member.role', detail: (i) => ({ role: String(i?.role) }) } })
    .input(UserId.extend({ role: Role }))
    .mutation(({ ctx, input }) => setMemberRole(ctx, input)),
  remove: adminProcedure
    .meta({ audit: { action: 'member.remove' } })
    .input(UserId)
    .mutation(({ ctx, input }) => removeMember(ctx, input)),
  invite: adminProcedure
    .meta({ audit: { action: 'member.invite', detail: (i) => ({ role: String(i?.role) }) } })
    .input(z.object({ email: z.email('Enter an email address like name@hospital.org.').max(320), role: Role }))
    .mutation(({ ctx, input }) => inviteMember(ctx, input)),
});
