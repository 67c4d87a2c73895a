import { createHash } from 'node:crypto';
import { FhirError, shown } from './client-errors';

/** How a FHIR client authenticates (the `fhir` connector's decrypted `auth`). */
export type FhirAuth =
  | { kind: 'none' }
  | { kind: 'basic'; username: string; password: string }
  | { kind: 'bearer'; token: string }
  | { kind: 'oauth2'; token_url: string; client_id: string; client_secret: string; scope?: string };

interface CachedToken {
  token: string;
  /** When to fetch a new one: shortly before the server's expiry. */
  refreshAt: number;
}

/** OAuth2 access tokens by cache key, shared by every client of the process (a token serves many runs). */
const tokens = new Map<string, CachedToken>();
/** Token requests under way, so concurrent calls wait for one instead of each asking for its own. */
const pending = new Map<string, Promise<CachedToken>>();

/** Refresh this long before expiry (or a tenth of a short lifetime), so a token never expires in flight. */
const MARGIN_MS = 30_000;
/** When the token endpoint gives no `expires_in`. */
const DEFAULT_LIFETIME_S = 300;

/** The default cache key: the token's identity, with the secret hashed so the key never holds it. */
export function defaultCacheKey(auth: FhirAuth): string {
  if (auth.kind !== 'oauth2') return auth.kind;
  return createHash('sha256')
    .update(JSON.stringify([auth.token_url, auth.client_id, auth.client_secret, auth.scope ?? '']))
    .digest('hex');
}

/** Forgets tokens past their refresh time (old connector versions leave theirs behind). */
function prune(): void {
  const now = Date.now();
  for (const [key, token] of tokens) if (token.refreshAt <= now) tokens.delete(key);
}

/** Drops a cached token (after a 401: the server no longer takes it). */
export function forgetToken(cacheKey: string): void {
  tokens.delete(cacheKey);
}

export interface AuthCall {
  fetch: typeof fetch;
  signal: AbortSignal;
  cacheKey: string;
}

/** The Authorization header for `auth`, fetching an OAuth2 token when none is cached or it is about to expire. */
export async function authorization(auth: FhirAuth, call: AuthCall): Promise<string | undefined> {
  switch (auth.kind) {
    case 'none':
      return undefined;
    case 'basic':
      return `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
    case 'bearer':
      return `Bearer ${auth.token}`;
    case 'oauth2': {
      const cached = tokens.get(call.cacheKey);
      if (cached && Date.now() < cached.refreshAt) return `Bearer ${cached.token}`;
      let request = pending.get(call.cacheKey);
      if (!request) {
        request = requestToken(auth, call).finally(() => pending.delete(call.cacheKey));
        pending.set(call.cacheKey, request);
      }
      const fresh = await request;
      prune();
      tokens.set(call.cacheKey, fresh);
      return `Bearer ${fresh.token}`;
    }
  }
}

/** OAuth2 client credentials (RFC 6749 §4.4), the client authenticating with HTTP Basic as §2.3.1 prefers. */
async function requestToken(auth: Extract<FhirAuth, { kind: 'oauth2' }>, call: AuthCall): Promise<CachedToken> {
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  if (auth.scope) form.set('scope', auth.scope);
  const basic = Buffer.from(`${encodeURIComponent(auth.client_id)}:${encodeURIComponent(auth.client_secret)}`).toString('base64');
  const target = `the token endpoint ${shown(auth.token_url)}`;
  let response: Response;
  let text: string;
  try {
    response = await call.fetch(auth.token_url, {
      method: 'POST',
      headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: form.toString(),
      signal: call.signal,
    });
    text = await response.text();
  } catch (e) {
    if (call.signal.aborted)
      throw call.signal.reason instanceof FhirError ? call.signal.reason : new FhirError('FHIR_CANCELLED', `${target} was not answered: the call was aborted`);
    throw new FhirError('FHIR_UNREACHABLE', `${target} could not be reached: ${causeOf(e)}`);
  }
  let body: { access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // an HTML error page or the like: reported below by status
  }
  if (!response.ok) {
    // RFC 6749 §5.2 error codes say what was wrong without echoing the secret
    const why =
      typeof body.error === 'string'
        ? `${body.error}${typeof body.error_description === 'string' ? ` (${body.error_description})` : ''}`
        : `status ${response.status}`;
    throw new FhirError('FHIR_AUTH_FAILED', `${target} refused the client credentials of client "${auth.client_id}": ${why}`, response.status);
  }
  if (typeof body.access_token !== 'string' || body.access_token === '') throw new FhirError('FHIR_BAD_RESPONSE', `${target} answered without an access_token`);
  const lifetimeMs = (typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : DEFAULT_LIFETIME_S) * 1000;
  return { token: body.access_token, refreshAt: Date.now() + lifetimeMs - Math.min(MARGIN_MS, lifetimeMs / 10) };
}

export function causeOf(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = e.cause instanceof Error ? e.cause.message : undefined;
  return cause ?? e.message;
}
