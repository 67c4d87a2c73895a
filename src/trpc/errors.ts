import { TRPCClientError } from '@trpc/client';

/** The `{code, message, status}` every server error carries (same body as the REST API's `error`). */
export interface AppErrorInfo {
  code: string;
  message: string;
  status: number;
  /** Field errors (VALIDATION_FAILED) or the validator's findings (PIPELINE_INVALID). */
  details?: unknown;
}

export function appError(error: unknown): AppErrorInfo | null {
  if (!(error instanceof TRPCClientError)) return null;
  const app = (error.data as { app?: Partial<AppErrorInfo> } | undefined)?.app;
  if (app?.code && app.message) return { code: app.code, message: app.message, status: app.status ?? 500, details: app.details };
  return null;
}

/** A message fit to show a user, whatever went wrong (server error, network failure, …). */
export function errorMessage(error: unknown): string {
  const app = appError(error);
  if (app?.code === 'RATE_LIMITED') return 'Too many requests right now. Clinflow will try again by itself in a moment.';
  if (app) return app.message;
  if (error instanceof TRPCClientError && /fetch|network/i.test(error.message)) {
    return 'Could not reach the Clinflow server. Check your connection and try again.';
  }
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong. Please try again.';
}

/** The validator's findings a refusal carries (deploy or run of a pipeline with problems), as lines to show. */
export function findingLines(error: unknown, max = 5): string[] {
  const app = appError(error);
  if (app?.code !== 'PIPELINE_INVALID' || !Array.isArray(app.details)) return [];
  const findings = app.details as { node_id?: string | null; message?: string }[];
  const lines = findings.slice(0, max).map((f) => (f.node_id ? `${f.node_id}: ${f.message}` : String(f.message)));
  if (findings.length > max) lines.push(`and ${findings.length - max} more`);
  return lines;
}

/** How long a 429 asks to wait before trying again, in ms (from the error's retry_after). */
export function retryAfterMs(error: unknown): number | null {
  const app = appError(error);
  const seconds = app?.code === 'RATE_LIMITED' ? (app.details as { retry_after?: number } | undefined)?.retry_after : undefined;
  return typeof seconds === 'number' ? seconds * 1000 : null;
}

export function isUnauthenticated(error: unknown): boolean {
  return appError(error)?.code === 'UNAUTHENTICATED';
}
