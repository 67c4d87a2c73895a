'use client';

import { createAuthClient } from 'better-auth/react';

function make() {
  return createAuthClient({ baseURL: window.location.origin, basePath: '/api/auth' });
}

let client: ReturnType<typeof make> | undefined;

/** better-auth's browser client, made on first use (it needs `window.location`). */
export function authClient(): ReturnType<typeof make> {
  client ??= make();
  return client;
}

/** better-auth's error message, or a generic one. */
export function authErrorMessage(error: { message?: string; statusText?: string; status?: number } | null | undefined): string {
  if (error?.message) return error.message;
  if (error?.status === 429) return 'Too many attempts. Wait a minute and try again.';
  return error?.statusText || 'Something went wrong. Please try again.';
}
