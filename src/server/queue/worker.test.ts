import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '@/server/db/client';
import { migratedDatabase } from '../../../tests/support/databases';
import { organizations, pipelines } from '@/server/db/schema';
import { startExecution } from '@/server/services/executions/start-execution';
import { createQueue, EXECUTE_QUEUE, type Queue } from './queue';
import { startWorkers } from './worker';

/** Long enough that a job reached only by a poll would outlast the test: every start below came from a wake or a loop's own fetching. */
const NO_POLL_SECONDS = 600;
const LOOPS = 3;
/** pg-boss's least. */
const HEARTBEAT_SECONDS = 10;

/** A database (a fresh Postgres one, or an in-memory PGlite) with an organization, a pipeline and a queue. */
async function setUp(kind: 'postgres' | 'pglite', superviseIntervalSeconds = 30) {
  const { database, close } = await migratedDatabase(kind, 'loops', 10);
  await database.db.insert(organizations).values({ id: 'org-loops', name: 'loops' });
  const [p] = await database.db
    .insert(pipelines)
    .values({ orgId: 'org-loops', name: 'p', definition: { nodes: [], connections: [] } })
    .returning({ id: pipelines.id });
  const queue = await createQueue(database, { heartbeatSeconds: HEARTBEAT_SECONDS, superviseIntervalSeconds, cronSeconds: 30 });
  const ran: string[] = [];
  const deliveries: { id: string; firstDelivery: boolean }[] = [];
  /** Executions whose first delivery throws. */
  const failOnce = new Set<string>();
  /** Executions whose run completes its job in its own write, as runExecution does with the result. */
  const inline = new Set<string>();
  let gate = Promise.resolve();
  return {
    database,
    queue,
    ran,
    /** Holds every run until the returned function is called. */
    hold: () => {
      let release = () => {};
      gate = new Promise((resolve) => (release = resolve));
      return release;
    },
    deliveries,
    failOnce,
    inline,
    start: (pollSeconds = NO_POLL_SECONDS) =>
      startWorkers(
        queue,
        LOOPS,
        async (id, { firstDelivery, completion }) => {
          deliveries.push({ id, firstDelivery });
          await gate;
          if (firstDelivery && failOnce.has(id)) throw new Error('the run failed');
          if (inline.has(id)) {
            await database.db.execute(completion.statement!);
            completion.done();
          }
          ran.push(id);
        },
        pollSeconds,
      ),
    /** pg-boss's state of each execution's job. */
    jobStates: async (ids: string[]) =>
      Promise.all(
        ids.map(async (executionId) =>
          (await queue.boss.findJobs<{ executionId: string }>(EXECUTE_QUEUE, { data: { executionId } })).map((j) => j.state).join(),
        ),
      ),
    /** Queues an execution as the services do; `wake` after the commit as they do (on Postgres the commit notifies). */
    queued: (db: Database['db'] = database.db, wake = true) =>
      startExecution(
        db,
        { orgId: 'org-loops', pipelineId: p!.id, pipelineVersion: 1, trigger: 'api', testMode: false, inputs: {}, status: 'queued' },
        (tx, id) => queue.enqueue(tx, id),
      ).then((r) => {
        if (wake && db === database.db) queue.wake();
        return r.id;
      }),
    async close() {
      await queue.stop(); // a second stop after a test's own does nothing
      await close();
    },
  };
}

const allCompleted = (env: { jobStates(ids: string[]): Promise<string[]> }, ids: string[]) =>
  expect.poll(() => env.jobStates(ids), { timeout: 10_000, interval: 50 }).toEqual(ids.map(() => 'completed'));
const allRun = (ran: string[], ids: string[]) => expect.poll(() => ids.filter((id) => !ran.includes(id)), { timeout: 20_000, interval: 50 }).toEqual([]);

// Jobs reach the dispatcher without its idle poll: by a wake (a NOTIFY on Postgres, one per transaction,
// queue.wake() after each commit embedded), or by a fetch when a slot frees.
describe.each(['postgres', 'pglite'] as const)('the execution queue worked on %s', (kind) => {
  let env: Awaited<ReturnType<typeof setUp>> | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it('run each of several executions queued in one transaction', async () => {
    env = await setUp(kind);
    await env.start();
    const e = env;
    const ids = await e.database.db.transaction(async (tx) => {
      const out: string[] = [];
      for (let i = 0; i < 5; i++) out.push(await e.queued(tx as never));
      return out;
    });
    for (const _ of ids) e.queue.wake();
    await allRun(e.ran, ids);
  });

  it('run every one of more executions than loops, queued while all the loops are busy', async () => {
    env = await setUp(kind);
    await env.start();
    const release = env.hold();
    const ids = await Promise.all(Array.from({ length: 12 }, () => env!.queued()));
    await new Promise((r) => setTimeout(r, 300)); // the loops have taken their first jobs and wait
    release();
    await allRun(env.ran, ids);
    expect(new Set(env.ran).size).toBe(env.ran.length);
  });

  it('run every one of a backlog queued before they started (no wake for any of it)', async () => {
    env = await setUp(kind);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(await env.queued(undefined, false));
    await env.start(); // their first fetches find 3; each fetches again when it finishes, until none is left
    await allRun(env.ran, ids);
  });

  it('complete each job once its run is done, and none before', async () => {
    env = await setUp(kind);
    await env.start();
    const release = env.hold();
    const ids = await Promise.all(Array.from({ length: 6 }, () => env!.queued()));
    await new Promise((r) => setTimeout(r, 300));
    expect(await env.jobStates(ids.filter((id) => env!.deliveries.some((d) => d.id === id)))).toEqual(Array(LOOPS).fill('active'));
    release();
    await allRun(env.ran, ids);
    await allCompleted(env, ids);
  });

  it('complete a job in its run’s own write, as the result’s write does, and the others as before', async () => {
    env = await setUp(kind);
    await env.start();
    const ids = [await env.queued(undefined, false), await env.queued(undefined, false), await env.queued(undefined, false)];
    env.inline.add(ids[0]!).add(ids[2]!);
    env.queue.wake();
    await allRun(env.ran, ids);
    await allCompleted(env, ids);
    expect(env.deliveries).toHaveLength(3);
  });

  it('deliver again a job whose run threw, and only that one', async () => {
    env = await setUp(kind);
    const [failing, fine] = [await env.queued(undefined, false), await env.queued(undefined, false)];
    env.failOnce.add(failing);
    await env.start(1); // a retry is queued a second later, without a wake: the idle poll finds it
    await allRun(env.ran, [fine, failing]);
    expect(env.deliveries.filter((d) => d.id === failing).map((d) => d.firstDelivery)).toEqual([true, false]);
    expect(env.deliveries.filter((d) => d.id === fine)).toHaveLength(1);
  });

  it('keep the claim of a run that outlasts the heartbeat: delivered once, completed after it', async () => {
    env = await setUp(kind, 1); // the supervisor looks every second for jobs whose heartbeat stopped
    await env.start();
    const release = env.hold();
    const id = await env.queued();
    await new Promise((r) => setTimeout(r, (HEARTBEAT_SECONDS + 3) * 1000));
    expect(await env.jobStates([id])).toEqual(['active']);
    release();
    await allRun(env.ran, [id]);
    await allCompleted(env, [id]);
    expect(env.deliveries).toHaveLength(1);
  }, 40_000);

  it('when stopped, complete a job whose run ends within the grace, not deliver it again', async () => {
    env = await setUp(kind);
    await env.start();
    const release = env.hold();
    const id = await env.queued();
    await expect.poll(() => env!.deliveries.length, { timeout: 10_000, interval: 20 }).toBe(1);
    const stopped = env.queue.stop(5_000);
    release();
    await stopped;
    expect(env.ran).toEqual([id]);
    const rows = await env.database.db.execute(sql`select state from pgboss.job where data->>'executionId' = ${id}`);
    expect(Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows).toEqual([{ state: 'completed' }]);
  });

  it('when stopped, give back the jobs still running, to be delivered again', async () => {
    env = await setUp(kind);
    await env.start();
    env.hold();
    const id = await env.queued();
    await expect.poll(() => env!.deliveries.length, { timeout: 10_000, interval: 20 }).toBe(1);
    await env.queue.stop(200);
    // pg-boss's pool is closed on Postgres: the job is read through our own connection
    const rows = await env.database.db.execute(sql`select state from pgboss.job where data->>'executionId' = ${id}`);
    expect(Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows).toEqual([{ state: 'retry' }]);
  });
});
