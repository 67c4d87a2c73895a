import type { SQL } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { rowsOf } from '@/server/db/rows';
import { BATCH_BYTES, endBytes, type EndRow, type TakenRun } from './ends-batch';

/** Ends written by one transaction at most. */
const MAX_BATCH = 100;

/**
 * A run's end: its statement, and (`batched`) its values for one statement with others' (ends-batch.ts). `takes`: the
 * run's id, when the statement also takes the runs held after it (EndRow.takeFor) and returns them (TakenRun rows).
 */
export interface End {
  statement: SQL;
  batched?: EndRow;
  takes?: string;
}

/** The statement writing several ends at once (node-records.ts `endsTogether`). */
export type JoinEnds = (rows: EndRow[]) => SQL;

interface Pending {
  end: End;
  resolve(taken: TakenRun[]): void;
  reject(e: unknown): void;
}

/** What `end` took of the rows its statement (or its batch's) returned. */
function takenBy(end: End, rows: TakenRun[]): TakenRun[] {
  return end.takes === undefined ? [] : rows.filter((r) => r.after_id === end.takes);
}

/**
 * Group commit of runs' ends: a result's write that finds another on its way waits for it, and the ends gathered
 * meanwhile are written together — as one statement when none of them settles a queue job and they are not too large
 * (`batched`, BATCH_BYTES: one write to the database's socket and one commit, no transaction around it), else in one
 * transaction (their statements pipelined on one connection, one commit — one wait for the WAL — for all). The first
 * end after a quiet spell is written at once, alone. Should the batch fail, each of its ends is written again alone,
 * so a bad one fails only its own run.
 */
class ResultWriter {
  private readonly waiting: Pending[] = [];
  private draining = false;

  constructor(
    private readonly db: Db,
    private readonly join: JoinEnds,
  ) {}

  write(end: End): Promise<TakenRun[]> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ end, resolve, reject });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.waiting.length) {
        const batch = this.waiting.splice(0, MAX_BATCH);
        if (batch.length > 1 && (await this.together(batch))) continue;
        for (const p of batch) await this.db.execute(p.end.statement).then((r) => p.resolve(takenBy(p.end, rowsOf<TakenRun>(r))), p.reject);
      }
    } finally {
      this.draining = false;
    }
  }

  /** The batch in one statement, or one transaction; false (nothing of it written) if that failed. */
  private async together(batch: Pending[]): Promise<boolean> {
    let taken: TakenRun[][];
    try {
      const rows = batch.map((p) => p.end.batched);
      if (rows.every((r) => r !== undefined) && rows.reduce((n, r) => n + endBytes(r), 0) <= BATCH_BYTES) {
        const all = rowsOf<TakenRun>(await this.db.execute(this.join(rows)));
        taken = batch.map((p) => takenBy(p.end, all));
      } else
        taken = await this.db.transaction(async (tx) => {
          const done = await Promise.allSettled(batch.map((p) => tx.execute(p.end.statement)));
          const failed = done.find((d) => d.status === 'rejected');
          if (failed) throw failed.reason;
          return done.map((d, i) => takenBy(batch[i]!.end, rowsOf<TakenRun>((d as PromiseFulfilledResult<unknown>).value)));
        });
    } catch {
      return false;
    }
    batch.forEach((p, i) => p.resolve(taken[i]!));
    return true;
  }
}

const writers = new WeakMap<Db, ResultWriter>();

/** Writes a run's end in the next group commit of `db` (several ends: `join`); resolves once it is committed, to the runs it took (End.takes). */
export function writeResult(db: Db, end: End, join: JoinEnds): Promise<TakenRun[]> {
  let writer = writers.get(db);
  if (!writer) writers.set(db, (writer = new ResultWriter(db, join)));
  return writer.write(end);
}
