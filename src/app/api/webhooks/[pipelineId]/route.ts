import { handleWebhook } from '@/server/api/rest/webhook';

export const dynamic = 'force-dynamic';

export const POST = handleWebhook;
export const GET = handleWebhook;
export const PUT = handleWebhook;
export const PATCH = handleWebhook;
export const DELETE = handleWebhook;
