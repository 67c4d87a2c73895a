import { getRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

async function handle(req: Request) {
  const rt = await getRuntime();
  return rt.auth.handler(req);
}

export const GET = handle;
export const POST = handle;
