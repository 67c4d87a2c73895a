/** Who is calling, once authenticated: an API key or a signed-in browser user, always within one organization. */
export interface Principal {
  kind: 'api-key' | 'session';
  orgId: string;
  scopes: string[];
  keyId?: string;
  userId?: string;
  /** The browser session (kind `session`): where its active organization is kept. */
  sessionId?: string;
  /** The client address of the request (what the audit trail records). */
  address?: string;
}
