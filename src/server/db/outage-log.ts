import { logger } from '@/server/logger';

/** How often a process says, of one kind of failure, that the database is away while it is. */
const EVERY_MS = 30_000;

const said = new Map<string, { quietUntil: number; unsaid: number }>();

/**
 * Logs a failure for want of the database at most once per 30 s per message per process, with how many went
 * unsaid since its last line: during an outage every request (503) and every queue loop fails, and a line each
 * buried the log. The others are debug lines.
 */
export function logOutage(message: string, extra: Record<string, unknown>): void {
  const now = Date.now();
  const s = said.get(message) ?? { quietUntil: 0, unsaid: 0 };
  said.set(message, s);
  if (now < s.quietUntil) {
    s.unsaid++;
    // each one still readable where it is asked for (LOG_LEVEL=debug): which error, and when, for an outage looked into
    logger.debug(message, extra);
    return;
  }
  logger.error(message, s.unsaid ? { ...extra, more_since_last_line: s.unsaid } : extra);
  s.quietUntil = now + EVERY_MS;
  s.unsaid = 0;
}
