import type { SQL } from 'drizzle-orm';
import type { Db } from '@/server/db/client';

/** Ends written by one transaction at most. */
const MAX_BATCH = 100;

interface Pending {
  statement: SQL;
  resolve(): void;
  reject(e: unknown): void;
}

/**
 * Group commit of runs' ends: a result's write that finds another on its way waits for it, and the ends gathered
 * meanwhile go in one transaction (their statements pipelined on one connection, one commit — one wait for the WAL —
 * for all). The first end after a quiet spell is written at once, alone. Should the batch fail, each of its ends is
 * written again alone, so a bad one fails only its own run.
 */
class ResultWriter {
  private readonly waiting: Pending[] = [];
  private draining = false;

  constructor(private readonly db: Db) {}

  write(statement: SQL): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ statement, resolve, reject });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.waiting.length) {
        const batch = this.waiting.splice(0, MAX_BATCH);
        if (batch.length > 1 && (await this.together(batch))) continue;
        for (const p of batch) await this.db.execute(p.statement).then(() => p.resolve(), p.reject);
      }
    } finally {
      this.draining = false;
    }
  }

  /** The batch in one transaction; false (nothing of it written) if any of its statements failed. */
  private async together(batch: Pending[]): Promise<boolean> {
    try {
      await this.db.transaction(async (tx) => {
        const done = await Promise.allSettled(batch.map((p) => tx.execute(p.statement)));
        const failed = done.find((d) => d.status === 'rejected');
        if (failed) throw failed.reason;
      });
    } catch {
      return false;
    }
    for (const p of batch) p.resolve();
    return true;
  }
}

const writers = new WeakMap<Db, ResultWriter>();

/** Writes a run's end (one statement) in the next group commit of `db`; resolves once it is committed. */
export function writeResult(db: Db, statement: SQL): Promise<void> {
  let writer = writers.get(db);
  if (!writer) writers.set(db, (writer = new ResultWriter(db)));
  return writer.write(statement);
}
