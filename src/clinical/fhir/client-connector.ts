import type { HttpExchange } from '@/shared/http-exchange';
import { FhirClient } from './client';
import type { FhirAuth } from './client-auth';
import { FhirError } from './client-errors';

/** What a `fhir` connector gives a running node (a structural subset of the engine's ConnectorHandle). */
export interface FhirConnectorLike {
  id: string;
  name: string;
  endpoint: string;
  config: Record<string, unknown>;
  credentials: Record<string, unknown>;
  updatedAt: string;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * The client auth of a connector's decrypted credentials: `{auth: 'none' | 'basic' | 'bearer' | 'oauth2',
 * username, password, token, client_id, client_secret, token_url, scope}`. Settings that are not secret
 * (token_url, scope, client_id) may also sit in the connector's config.
 */
export function fhirAuthOf(connector: Pick<FhirConnectorLike, 'name' | 'config' | 'credentials'>): FhirAuth {
  const c = { ...connector.config, ...connector.credentials };
  // the connector's setting is `auth` (see GET /api/connectors/types); `kind` and `type` are read too
  const kind = text(c.auth) ?? text(c.kind) ?? text(c.type) ?? 'none';
  const missing = (fields: string[]) => {
    const absent = fields.filter((f) => !text(c[f]));
    if (absent.length)
      throw new FhirError(
        'FHIR_CONFIG_INVALID',
        `The connector "${connector.name}" uses ${kind} auth but has no ${absent.join(', ')}: set it on the connector`,
      );
  };
  switch (kind) {
    case 'none':
      return { kind: 'none' };
    case 'basic':
      missing(['username', 'password']);
      return { kind: 'basic', username: text(c.username)!, password: text(c.password)! };
    case 'bearer':
      missing(['token']);
      return { kind: 'bearer', token: text(c.token)! };
    case 'oauth2':
    case 'oauth2-client-credentials':
    case 'client_credentials':
      missing(['token_url', 'client_id', 'client_secret']);
      return {
        kind: 'oauth2',
        token_url: text(c.token_url)!,
        client_id: text(c.client_id)!,
        client_secret: text(c.client_secret)!,
        ...(text(c.scope) ? { scope: text(c.scope)! } : {}),
      };
    default:
      throw new FhirError(
        'FHIR_CONFIG_INVALID',
        `The connector "${connector.name}" has an auth kind "${kind}" this client does not know (none, basic, bearer, oauth2)`,
      );
  }
}

/**
 * A client for a connector; its OAuth2 tokens are cached per connector version, so an edit drops them. `request`, when
 * given, carries the exchanges read whole (see FhirClientOptions.request).
 */
export function clientForConnector(connector: FhirConnectorLike, fetch: typeof globalThis.fetch, timeoutMs?: number, request?: HttpExchange): FhirClient {
  return new FhirClient({
    baseUrl: connector.endpoint,
    auth: fhirAuthOf(connector),
    fetch,
    ...(request ? { request } : {}),
    cacheKey: `connector:${connector.id}:${connector.updatedAt}`,
    ...(timeoutMs ? { timeoutMs } : {}),
  });
}
