import postgres from 'postgres';
import { afterEach, expect, it } from 'vitest';
import type { Database } from '@/server/db/client';
import { migratedDatabase } from '../../../tests/support/databases';
import { organizations, pipelines } from '@/server/db/schema';
import { startExecution } from '@/server/services/executions/start-execution';
import { createQueue, type Queue } from './queue';
import { startWorkers } from './worker';

// Two server processes working one Postgres queue, as two queues in this process: an execution queued by one of
// them (Queue.enqueueOne) is taken by that one while it has a free slot and one more, without waking the other;
// otherwise, or when its fetch claimed other jobs instead, the other is woken and runs it.

const SLOTS = 3;
const NO_POLL_SECONDS = 600;
const timing = { heartbeatSeconds: 10, superviseIntervalSeconds: 30, cronSeconds: 30 };

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

/** A process working the queue: its runs wait for `release()`. */
async function processOn(database: Database) {
  const queue = await createQueue(database, timing);
  cleanup.push(() => queue.stop(200));
  const ran: string[] = [];
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  await startWorkers(
    queue,
    SLOTS,
    async (id) => {
      ran.push(id);
      await gate;
    },
    NO_POLL_SECONDS,
  );
  return { queue, ran, release };
}

/** A database with an organization and a pipeline, a listener of the queue's NOTIFY channel, and `queueBy`. */
async function setUp(label: string) {
  const { database, close } = await migratedDatabase('postgres', label, 10);
  cleanup.push(close);
  await database.db.insert(organizations).values({ id: 'org-one', name: 'one' });
  const [p] = await database.db
    .insert(pipelines)
    .values({ orgId: 'org-one', name: 'p', definition: { nodes: [], connections: [] } })
    .returning({ id: pipelines.id });
  const notified: string[] = [];
  const listener = postgres(database.url!, { max: 1, onnotice: () => {} });
  cleanup.push(() => listener.end({ timeout: 5 }));
  await listener.listen('clinflow_execution_jobs', (payload) => notified.push(payload));
  /** The wake-ups sent so far: those of the commits before a marker, which is delivered after them. */
  const wakeUps = async () => {
    const marker = `marker ${notified.length}`;
    await listener.notify('clinflow_execution_jobs', marker);
    await expect.poll(() => notified.includes(marker), { timeout: 5_000, interval: 10 }).toBe(true);
    return notified.filter((n) => !n.startsWith('marker'));
  };
  const start = (q: Queue, notify: boolean, fail = false) =>
    startExecution(
      database.db,
      { orgId: 'org-one', pipelineId: p!.id, pipelineVersion: 1, trigger: 'api', testMode: false, inputs: {}, status: 'queued', notify },
      async (tx, id) => {
        await q.enqueue(tx, id);
        if (fail) throw new Error('the transaction failed');
      },
    ).then((r) => r.id);
  /** Queues an execution as the services do; `fail` makes the transaction fail after the queue's write. */
  const queueBy = (q: Queue, fail = false) => q.enqueueOne((notify) => start(q, notify, fail));
  /** Queues one waking nobody. */
  const queueSilently = (q: Queue) => start(q, false);
  return { database, wakeUps, queueBy, queueSilently };
}

it('an execution queued by a process with a slot to spare runs there without waking the others; without, every process is woken', async () => {
  const { database, wakeUps, queueBy } = await setUp('enqueue_one');
  const a = await processOn(database);
  const b = await processOn(database);
  cleanup.push(async () => (a.release(), b.release()));

  const own = [await queueBy(a.queue), await queueBy(a.queue)];
  await expect.poll(() => a.ran, { timeout: 10_000, interval: 20 }).toEqual(expect.arrayContaining(own));
  expect(b.ran).toEqual([]);
  expect(await wakeUps()).toEqual([]);

  const overflow = await queueBy(a.queue); // a keeps its last slot for others' jobs: every process is woken for this one
  expect(await wakeUps()).toHaveLength(1);
  await expect.poll(() => [...a.ran, ...b.ran], { timeout: 10_000, interval: 20 }).toContain(overflow);
});

it('a failed admission gives back the slot it had taken on: the next executions are still taken without waking the others', async () => {
  const { database, wakeUps, queueBy } = await setUp('enqueue_one_fail');
  const a = await processOn(database);
  cleanup.push(async () => a.release());
  for (let i = 0; i < 2; i++) await expect(queueBy(a.queue, true)).rejects.toThrow('the transaction failed');
  const ids = [await queueBy(a.queue), await queueBy(a.queue)];
  await expect.poll(() => a.ran, { timeout: 10_000, interval: 20 }).toEqual(expect.arrayContaining(ids));
  expect(await wakeUps()).toEqual([]);
});

it('a process whose fetch claimed other jobs than the one it took on wakes the others for it', async () => {
  const { database, queueBy, queueSilently } = await setUp('enqueue_one_handover');
  const a = await processOn(database);
  const b = await processOn(database);
  cleanup.push(async () => (a.release(), b.release()));
  // older jobs nobody was woken for: a's fetch for its own job claims them first and fills its slots
  const older = [await queueSilently(a.queue), await queueSilently(a.queue), await queueSilently(a.queue)];
  const own = await queueBy(a.queue);
  await expect.poll(() => [...a.ran, ...b.ran].sort(), { timeout: 10_000, interval: 20 }).toEqual([...older, own].sort());
  expect(a.ran.sort()).toEqual(older.sort());
  expect(b.ran).toEqual([own]);
});
