import type { PgBoss } from 'pg-boss';
import { PreparedTexts } from '@/server/db/prepared-texts';

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
  // pg-boss types its database as an interface of `executeSql` only; ours is the node-postgres pool it made
  const db = boss.getDb() as unknown as BossDatabase;
  if (typeof db.executeSql !== 'function') return;
  const plain = db.executeSql.bind(db);
  const texts = new PreparedTexts('pgboss');
  db.executeSql = (text, values) => {
    const name = db.pool ? texts.nameOf(text) : undefined;
    return name ? db.pool!.query({ name, text, values }) : plain(text, values);
  };
}
