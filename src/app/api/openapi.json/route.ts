import { withApi } from '@/server/api/edge';
import { openApiDocument } from '@/server/api/openapi';

export const dynamic = 'force-dynamic';

/** The REST reference, readable without a key (it holds no organization data). */
export const GET = withApi('public', () => Response.json(openApiDocument()));
