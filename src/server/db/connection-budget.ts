import { sql } from 'drizzle-orm';
import type { Db } from './client';
import { logger } from '@/server/logger';
import { rowsOf } from './rows';

export interface ConnectionBudget {
  /** Processes this start will run (server processes, or 1 for a worker). */
  processes: number;
  /** Connections each may open: its pool and its queue's. */
  perProcess: number;
  /** What Postgres accepts from ordinary roles: max_connections less the reserved ones. */
  accepted: number;
  /** Connections open now, other than the one asking (other servers and workers, tools). */
  inUse: number;
}

/**
 * What to warn about when the processes starting could open more connections than Postgres accepts: under load
 * their pools fill, Postgres refuses the rest ("too many clients") and requests are answered 503. Null when they fit.
 */
export function connectionBudgetWarning(b: ConnectionBudget): string | null {
  const wanted = b.processes * b.perProcess;
  if (wanted + b.inUse <= b.accepted) return null;
  return (
    `${b.processes} process${b.processes === 1 ? '' : 'es'} × ${b.perProcess} connections (DATABASE_POOL_MAX plus the queue's) = ${wanted}, ` +
    `with ${b.inUse} already open, is more than the ${b.accepted} Postgres accepts (max_connections less the reserved): under load, ` +
    'requests will be refused with 503. Lower WEB_CONCURRENCY or DATABASE_POOL_MAX, or raise max_connections.'
  );
}

/** The budget as Postgres reports it now. */
export async function connectionBudget(db: Db, processes: number, perProcess: number): Promise<ConnectionBudget> {
  const [r] = rowsOf<{ accepted: number; in_use: number }>(
    await db.execute(sql`select current_setting('max_connections')::int - current_setting('superuser_reserved_connections')::int as accepted,
      (select count(*) from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid())::int as in_use`),
  );
  return { processes, perProcess, accepted: Number(r!.accepted), inUse: Number(r!.in_use) };
}

/** Logs the warning, if any, at start; a failure to ask is not a reason not to start. */
export async function warnOnConnectionBudget(db: Db, processes: number, perProcess: number): Promise<void> {
  try {
    const warning = connectionBudgetWarning(await connectionBudget(db, processes, perProcess));
    if (warning) logger.warn(warning);
  } catch (e) {
    logger.warn('could not compare the connections this start may open with what Postgres accepts', { error: e instanceof Error ? e.message : String(e) });
  }
}
