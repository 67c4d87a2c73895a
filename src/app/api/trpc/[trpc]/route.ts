import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { withApi } from '@/server/api/edge';
import { appRouter } from '@/server/api/root';
import { createContext } from '@/server/api/trpc';

export const dynamic = 'force-dynamic';

/** The web app's typed API: same procedures, same edge (authentication, rate limit, headers) as REST. */
const handle = withApi('optional', (req, edge) =>
  fetchRequestHandler({
    endpoint: '/api/trpc',
    req,
    router: appRouter,
    // the web app's endpoint: runs started here are the editor's
    createContext: () => createContext(edge.rt, edge.principal, edge.authError, 'app'),
  }),
);

export const GET = handle;
export const POST = handle;
