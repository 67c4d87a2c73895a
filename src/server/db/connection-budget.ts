import { sql } from 'drizzle-orm';
import { env } from '@/env';
import { errorForLog, logger } from '@/server/logger';
import { QUEUE_CONNECTIONS } from '@/server/queue/queue';
import type { Db } from './client';
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

/**
 * How many processes a start whose count was not chosen (WEB_CONCURRENCY unset: one per core) runs: as many as fit in
 * what Postgres still accepts, at least one and at most `cores`.
 */
export function processesThatFit(cores: number, b: Omit<ConnectionBudget, 'processes'>): number {
  return Math.max(1, Math.min(cores, Math.floor((b.accepted - b.inUse) / b.perProcess)));
}

/**
 * At start: the processes to run — `requested`, or with `fit` (no count chosen) as many of them as fit the budget,
 * said in the log — and a warning when even those do not fit. Each process may open its pool (DATABASE_POOL_MAX) and
 * its queue's connections. A failure to ask is not a reason not to start.
 */
export async function checkConnectionBudget(db: Db, requested: number, fit = false): Promise<number> {
  const perProcess = env.DATABASE_POOL_MAX + QUEUE_CONNECTIONS;
  let budget: ConnectionBudget;
  try {
    budget = await connectionBudget(db, requested, perProcess);
  } catch (e) {
    logger.warn('could not compare the connections this start may open with what Postgres accepts', { error: errorForLog(e) });
    return requested;
  }
  const processes = fit ? processesThatFit(requested, budget) : requested;
  if (processes < requested) {
    logger.info(
      `starting ${processes} server process${processes === 1 ? '' : 'es'}, not one per core (${requested}): each may open ${perProcess} connections, ` +
        `Postgres accepts ${budget.accepted} and ${budget.inUse} are open (set WEB_CONCURRENCY, DATABASE_POOL_MAX or max_connections to change it)`,
    );
  }
  const warning = connectionBudgetWarning({ ...budget, processes });
  if (warning) logger.warn(warning);
  return processes;
}
