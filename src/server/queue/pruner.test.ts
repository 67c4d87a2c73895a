import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database, Db } from '@/server/db/client';
import { migratedDatabase } from '../../../tests/support/databases';
import { PRUNE_QUEUE, requestPrune } from './pruner';
import { createQueue, type Queue } from './queue';

let database: Database;
let close: () => Promise<void>;
let queue: Queue;
beforeAll(async () => {
  ({ database, close } = await migratedDatabase('pglite', 'pruner'));
  queue = await createQueue(database, { heartbeatSeconds: 10, superviseIntervalSeconds: 30, cronSeconds: 30 });
  // the pruner's queue as startPruner makes it, without its schedule and worker: the test plays the pass
  await queue.boss.createQueue(PRUNE_QUEUE, { policy: 'exclusive', retryLimit: 0 });
});
afterAll(async () => {
  await queue?.stop(200);
  await close?.();
});

/** Takes the queued pass and ends it, as the pruner's worker does. */
async function finishPass(): Promise<string> {
  const [job] = await queue.boss.fetch(PRUNE_QUEUE);
  await queue.boss.complete(PRUNE_QUEUE, job!.id);
  return job!.id;
}

// Several "prune now" at once (the REST fuzz test sends six): the queue refused the second one's job because the
// first one's was queued, and that pass ended before the second looked it up: it answered 503, "could not be queued".
it('a "prune now" refused because a pass is queued gets that pass, or a new one if it ended in between', async () => {
  const first = await requestPrune(queue, database.db, 'api-key:org-a');
  expect(first).toEqual(expect.any(String));
  expect(await requestPrune(queue, database.db, 'api-key:org-b')).toBe(first);

  // the database the look-up goes to: the pass ends just before it
  let ended: string | undefined;
  const endsFirst = Object.create(database.db, {
    execute: { value: async (query: Parameters<Db['execute']>[0]) => ((ended ??= await finishPass()), database.db.execute(query)) },
  }) as Db;
  const third = await requestPrune(queue, endsFirst, 'api-key:org-c');
  expect(ended).toBe(first);
  expect(third).toEqual(expect.any(String));
  expect(third).not.toBe(first);
  expect(await finishPass()).toBe(third);
});

// An admin shortens a retention and presses "prune now" while a scheduled pass is running: that pass may have passed
// the admin's pipeline already, so joining it answered "0 removed" (a clean-clone run of the REST suite found it).
it('a "prune now" while a pass is running waits for it and gets a pass of its own', async () => {
  const queued = await requestPrune(queue, database.db, 'api-key:org-c');
  const [running] = await queue.boss.fetch(PRUNE_QUEUE);
  expect(running?.id).toBe(queued);
  let endedAt = 0;
  setTimeout(() => void queue.boss.complete(PRUNE_QUEUE, running!.id).then(() => (endedAt = Date.now())), 600);
  const mine = await requestPrune(queue, database.db, 'api-key:org-d');
  expect(endedAt).toBeGreaterThan(0);
  expect(mine).not.toBe(running!.id);
  expect((await queue.boss.fetch(PRUNE_QUEUE)).map((j) => j.id)).toEqual([mine]);

  // a running pass that outlasts the wait is the answer: the caller reports it as still running
  expect(await requestPrune(queue, database.db, 'api-key:org-e', 300)).toBe(mine);
  await queue.boss.complete(PRUNE_QUEUE, mine!);
});
