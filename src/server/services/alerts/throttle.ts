import { sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { rowsOf } from '@/server/db/rows';

export interface ThrottleOutcome {
  /** This failure is the one alert of its window: start the error pipeline. */
  send: boolean;
  /** Failures of the same pipeline and code held back in the window before this alert (sent with it). */
  heldBack: number;
}

/**
 * Counts one failure of `pipelineId` with `code` against its alert window, in one statement (an upsert that locks
 * the window's row), so processes failing the same pipeline at once agree: the first failure of a window (none sent
 * yet, or the last sent `windowSeconds` ago or more) is sent, with the count held back since; the others add one
 * to that count.
 */
export async function countFailure(db: Db, w: { orgId: string; pipelineId: string; code: string; windowSeconds: number }): Promise<ThrottleOutcome> {
  const expired = sql`alert_windows.sent_at <= now() - make_interval(secs => ${w.windowSeconds})`;
  const result = await db.execute(sql`
    insert into alert_windows (pipeline_id, error_code, org_id, sent_at, held_back, released, last_failed_at)
    values (${w.pipelineId}::uuid, ${w.code}, ${w.orgId}, now(), 0, 0, now())
    on conflict (pipeline_id, error_code) do update set
      sent_at = case when ${expired} then now() else alert_windows.sent_at end,
      released = case when ${expired} then alert_windows.held_back else alert_windows.released end,
      held_back = case when ${expired} then 0 else alert_windows.held_back + 1 end,
      last_failed_at = now()
    returning (sent_at = now()) as send, released`);
  const row = rowsOf<{ send: boolean; released: number }>(result)[0]!;
  return { send: row.send, heldBack: row.send ? row.released : 0 };
}
