import { withApi } from '@/server/api/edge';

export const dynamic = 'force-dynamic';

/** better-auth's endpoints (sign-up, sign-in, session), behind the API's edge (rate limit and its headers). */
const handle = withApi('public', (req, edge) => edge.rt.auth.handler(req));

export const GET = handle;
export const POST = handle;
