import type { PgBoss } from 'pg-boss';

/**
 * This process's execution loops (pg-boss workers fetching one job at a time) and which of them are
 * idle, so that a job's arrival wakes one idle loop — one fetch — instead of all of them.
 */
export class ExecutionLoops {
  private readonly ids: string[] = [];
  private readonly busy = new Set<string>();
  private next = 0;

  constructor(private readonly boss: PgBoss) {}

  add(id: string): void {
    this.ids.push(id);
  }

  started(id: string): void {
    this.busy.add(id);
  }

  /** The loop fetches again as soon as its job is acknowledged: the queue may hold more. */
  finished(id: string): void {
    this.busy.delete(id);
    this.boss.notifyWorker(id);
  }

  /** Wakes the next idle loop in turn (a burst of jobs wakes as many loops); none when all are busy — each fetches again when it finishes. */
  wakeOne(): void {
    for (let i = 0; i < this.ids.length; i++) {
      const id = this.ids[this.next++ % this.ids.length]!;
      if (!this.busy.has(id)) {
        this.boss.notifyWorker(id);
        return;
      }
    }
  }
}
