import { handleRest } from '@/server/api/rest/handler';

export const dynamic = 'force-dynamic';

export const GET = handleRest;
export const POST = handleRest;
export const PUT = handleRest;
export const PATCH = handleRest;
export const DELETE = handleRest;
export const HEAD = handleRest;
