/** Talks to a running server as a browser user would: sign up, then act with the session cookie. */
export interface Org {
  id: string;
  key: string;
}

/** Signs up; with `setupToken` (the start-up organization's one-time token) the user joins that organization. */
export async function signUp(baseUrl: string, email: string, password = 'correct horse battery staple', setupToken?: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl, ...(setupToken ? { 'x-setup-token': setupToken } : {}) },
    body: JSON.stringify({ name: email.split('@')[0], email, password }),
  });
  if (!res.ok) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]);
  return cookies.join('; ');
}

/** Calls a tRPC procedure of the web app with a session cookie. */
export async function trpc<T>(baseUrl: string, cookie: string, proc: string, input?: unknown): Promise<T> {
  const isQuery = input === undefined;
  const res = await fetch(`${baseUrl}/api/trpc/${proc}`, {
    method: isQuery ? 'GET' : 'POST',
    headers: { cookie, origin: baseUrl, ...(isQuery ? {} : { 'content-type': 'application/json' }) },
    body: isQuery ? undefined : JSON.stringify(input),
  });
  const body = (await res.json()) as { result?: { data: T }; error?: unknown };
  if (!res.ok || !body.result) throw new Error(`${proc} failed: ${res.status} ${JSON.stringify(body)}`);
  return body.result.data;
}

/** A new user in a new organization, with an admin API key of that organization. */
export async function orgWithKey(baseUrl: string, email: string, scopes = ['admin'], setupToken?: string): Promise<Org & { cookie: string }> {
  const cookie = await signUp(baseUrl, email, undefined, setupToken);
  const me = await trpc<{ organization: { id: string } }>(baseUrl, cookie, 'account.me');
  const created = await trpc<{ key: string }>(baseUrl, cookie, 'keys.create', { name: 'test', scopes });
  return { id: me.organization.id, key: created.key, cookie };
}
