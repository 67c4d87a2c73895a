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
