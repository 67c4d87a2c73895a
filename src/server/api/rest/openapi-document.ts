import { withApi } from '../edge';
import { openApiDocument } from '../openapi';

/** GET /api/openapi.json: the REST reference, readable without a key (it holds no organization data). */
export const handleOpenApiDocument = withApi('public', () => Response.json(openApiDocument()));
