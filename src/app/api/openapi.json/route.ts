import { handleOpenApiDocument } from '@/server/api/rest/openapi-document';

export const dynamic = 'force-dynamic';

export const GET = handleOpenApiDocument;
