import { env } from '@/env';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof LEVELS, 'silent'>;

function log(level: Level, message: string, extra?: unknown): void {
  if (LEVELS[level] < LEVELS[env.LOG_LEVEL]) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...(extra ? { extra } : {}) });
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(line + '\n');
}

/** Structured one-line JSON logs; never sent to clients. */
export const logger = {
  debug: (m: string, x?: unknown) => log('debug', m, x),
  info: (m: string, x?: unknown) => log('info', m, x),
  warn: (m: string, x?: unknown) => log('warn', m, x),
  error: (m: string, x?: unknown) => log('error', m, x),
};

/** Values a database error may carry about the row (a statement's parameters, a constraint's `detail`) stay out. */
interface QueryFailure {
  query: string;
  params: unknown[];
  cause?: { message?: string; code?: string };
}

function isQueryFailure(e: unknown): e is QueryFailure {
  return !!e && typeof e === 'object' && typeof (e as QueryFailure).query === 'string' && Array.isArray((e as QueryFailure).params);
}

/**
 * An error as the log may hold it: for a failed statement, its SQL (which carries placeholders, not values) and
 * the database's reason, never the parameters — patient data travels in those; for others, the stack.
 */
export function errorForLog(e: unknown): string {
  if (isQueryFailure(e)) {
    const statement = e.query.replace(/\s+/g, ' ').trim().slice(0, 200);
    // a reason may quote the value it refused (`invalid input syntax for type uuid: "…"`): quoted values are cut
    const message = e.cause?.message?.replace(/:\s*"[^"]*"/g, ': "…"');
    const reason = message ? `${message}${e.cause?.code ? ` [${e.cause.code}]` : ''}` : 'no reason given';
    const frames = e instanceof Error && e.stack ? e.stack.slice(e.stack.indexOf('\n    at ')) : '';
    return `database statement failed: ${reason} — in: ${statement}${frames}`;
  }
  if (e instanceof Error) return e.stack ?? e.message;
  // a plain object thrown by a library (pg-boss): its message and code, not "[object Object]"
  if (e && typeof e === 'object') {
    const { message, code } = e as { message?: unknown; code?: unknown };
    if (typeof message === 'string') return `${message}${typeof code === 'string' ? ` [${code}]` : ''}`;
    // its values could be a job's data (patient data): only what it has is said
    return `${Object.prototype.toString.call(e)} with ${Object.keys(e).slice(0, 20).join(', ') || 'no fields'}`;
  }
  return String(e);
}
