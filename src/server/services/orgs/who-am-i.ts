import { eq } from 'drizzle-orm';
import { organizations, users } from '@/server/db/schema';
import type { ServiceContext } from '../context';

export async function whoAmI(ctx: ServiceContext) {
  const [org] = await ctx.db.select().from(organizations).where(eq(organizations.id, ctx.principal.orgId));
  const [user] = ctx.principal.userId
    ? await ctx.db.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, ctx.principal.userId))
    : [];
  return {
    organization: { id: ctx.principal.orgId, name: org?.name ?? ctx.principal.orgId },
    user: user ?? null,
    scopes: ctx.principal.scopes,
  };
}
