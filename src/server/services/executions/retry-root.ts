import { sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { rowsOf } from '@/server/db/rows';

/**
 * The run a chain of retries began with: its id makes the idempotency keys of every retry in the chain
 * (`<root>:<node>`), so a write node that reached the server before its run failed sends the same key when
 * retried, and the server (If-None-Exist on the key's tag, Idempotency-Key) does not write it twice.
 */
export async function retryRoot(db: Db, original: { id: string; retryOf: string | null }): Promise<string> {
  if (!original.retryOf) return original.id;
  const result = await db.execute(sql`
    with recursive chain(id, retry_of, depth) as (
      select id, retry_of, 0 from executions where id = ${original.retryOf}::uuid
      union all
      select e.id, e.retry_of, c.depth + 1 from executions e join chain c on e.id = c.retry_of where c.depth < 1000
    )
    select id from chain order by depth desc limit 1`);
  // a run earlier in the chain pruned away: the oldest one left
  return rowsOf<{ id: string }>(result)[0]?.id ?? original.retryOf;
}
