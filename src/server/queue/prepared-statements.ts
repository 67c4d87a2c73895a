import { createHash } from 'node:crypto';
import type { PgBoss } from 'pg-boss';

/** A text is prepared once it has come this many times. */
const HOT = 3;
/** At most this many texts are prepared (each connection keeps a statement per text). */
const MAX_PREPARED = 100;
/** Texts counted before the counts start again (texts with values written into them come once each). */
const MAX_COUNTED = 2_000;

/**
 * Which of pg-boss's statements to prepare: those that come again and again with the same text (its fetch,
 * complete and send), not one-off texts (with values written into them) nor several statements in one text (its
 * transactions), which cannot be prepared. `nameOf(text)` gives the statement's name, or undefined: send as it is.
 */
export class PreparedTexts {
  private readonly counts = new Map<string, number>();
  private readonly names = new Map<string, string>();

  nameOf(text: string): string | undefined {
    const known = this.names.get(text);
    if (known) return known;
    if (this.names.size >= MAX_PREPARED || /;\s*\S/.test(text.trim().replace(/;+$/, ''))) return undefined;
    if (this.counts.size >= MAX_COUNTED) this.counts.clear();
    const n = (this.counts.get(text) ?? 0) + 1;
    if (n < HOT) {
      this.counts.set(text, n);
      return undefined;
    }
    this.counts.delete(text);
    const name = `pgboss_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    this.names.set(text, name);
    return name;
  }
}

/** The parts of pg-boss's own database (a node-postgres pool) this touches. */
interface BossDatabase {
  executeSql(text: string, values?: unknown[]): Promise<unknown>;
  pool?: { query(config: { name: string; text: string; values?: unknown[] }): Promise<unknown> };
}

/**
 * pg-boss on Postgres sends its statements as text through node-postgres, so Postgres plans each anew: its fetch
 * took 2.7 ms to plan and 0.8 ms to run, 1.8 fetches per execution of the MLLP feed. Its repeated statements are
 * sent as named ones instead (node-postgres prepares a name once per connection, and Postgres keeps its plan), on
 * pg-boss's own pool, so results, errors and reconnection are pg-boss's as before. Only for its own database (not
 * an adapter's), which has a pool.
 */
export function prepareRepeatedStatements(boss: PgBoss): void {
  const db = boss.getDb() as unknown as BossDatabase;
  if (typeof db.executeSql !== 'function') return;
  const plain = db.executeSql.bind(db);
  const texts = new PreparedTexts();
  db.executeSql = (text, values) => {
    const name = db.pool ? texts.nameOf(text) : undefined;
    return name ? db.pool!.query({ name, text, values }) : plain(text, values);
  };
}
