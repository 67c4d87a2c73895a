import { TRPCClientError } from '@trpc/client';

/** The `{code, message, status}` every server error carries (same body as the REST API's `error`). */
export interface AppErrorInfo {
  code: string;
  message: string;
  status: number;
}

export function appError(error: unknown): AppErrorInfo | null {
  if (!(error instanceof TRPCClientError)) return null;
  const app = (error.data as { app?: Partial<AppErrorInfo> } | undefined)?.app;
  if (app?.code && app.message) return { code: app.code, message: app.message, status: app.status ?? 500 };
  return null;
}

/** A message fit to show a user, whatever went wrong (server error, network failure, …). */
export function errorMessage(error: unknown): string {
  const app = appError(error);
  if (app) return app.message;
  if (error instanceof TRPCClientError && /fetch|network/i.test(error.message)) {
    return 'Could not reach the Clinflow server. Check your connection and try again.';
  }
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong. Please try again.';
}

export function isUnauthenticated(error: unknown): boolean {
  return appError(error)?.code === 'UNAUTHENTICATED';
}
