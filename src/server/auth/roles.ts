/** An organization member's role. */
export type MemberRole = 'admin' | 'member' | 'viewer';

/** What each role may do, as API scopes (a browser session acts with these). */
export const ROLE_SCOPES: Record<MemberRole, string[]> = {
  admin: ['admin'],
  member: ['read', 'write', 'execute'],
  viewer: ['read'],
};
