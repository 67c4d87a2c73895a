'use client';

/**
 * Accepts an invitation with the session just signed in (the sign-in page has no tRPC provider): the person
 * joins the inviting organization and their session switches to it. Null when done, else why not.
 */
export async function acceptInvitation(token: string): Promise<string | null> {
  try {
    const res = await fetch('/api/trpc/account.acceptInvitation', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    if (res.ok) return null;
    const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
    return body?.error?.message ?? `The invitation could not be accepted (${res.status}).`;
  } catch {
    return 'Could not reach the Clinflow server. Check your connection and try again.';
  }
}
