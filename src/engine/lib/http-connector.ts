import type { ConnectorHandle } from '../node-type';

/**
 * What an `http` connector adds to a request: its fixed headers and its authentication (basic, bearer or an
 * API key header), and the names of the headers that carry a secret (masked wherever a request is shown).
 */
export function connectorHeaders(c: ConnectorHandle): { headers: Record<string, string>; secret: string[] } {
  const headers = { ...((c.config.headers as Record<string, string> | undefined) ?? {}) };
  const s = c.credentials as Record<string, string | undefined>;
  const secret: string[] = [];
  if (c.config.auth === 'basic') headers.Authorization = `Basic ${Buffer.from(`${s.username ?? ''}:${s.password ?? ''}`).toString('base64')}`;
  if (c.config.auth === 'bearer') headers.Authorization = `Bearer ${s.token ?? ''}`;
  if (c.config.auth === 'basic' || c.config.auth === 'bearer') secret.push('Authorization');
  if (c.config.auth === 'api-key') {
    const name = String(c.config.header_name ?? 'X-API-Key');
    headers[name] = s.api_key ?? '';
    secret.push(name);
  }
  return { headers, secret };
}

/**
 * The URL a request through the connector goes to: a path (`/claims`) joined to the connector's base URL, or a
 * full URL on the connector's own origin. Credentials are never sent to another host: anything else is undefined.
 */
export function connectorUrl(c: ConnectorHandle, url: string): string | undefined {
  const base = new URL(c.endpoint.endsWith('/') ? c.endpoint : `${c.endpoint}/`);
  const target = url.startsWith('/') ? new URL(url.replace(/^\/+/, ''), base) : new URL(url);
  return target.origin === base.origin ? target.toString() : undefined;
}
