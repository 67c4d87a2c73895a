import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '@/server/db/rows';
import { executions } from '@/server/db/schema';
import type { Runtime } from '@/server/runtime';
import { failExecution, saveResult } from '@/server/services/executions/node-records';
import { startQueuedExecutions } from '@/server/services/executions/start-execution';
import { idleQueueRuntime, orgCaller } from '../../../tests/support/runtime';
import { beat, handOver, type ClaimsOptions } from './claims';
import { takeAdmitted } from './admitted';
import { FEED_ENDS_CHANNEL } from './held-runs';
import { enqueueRedelivered, EXECUTE_QUEUE, type Queue } from './queue';

const definition = {
  nodes: [
    { id: 'in', type: 'mllp-listener-trigger', config: { port: 2575 }, position: { x: 0, y: 0 } },
    { id: 'parse', type: 'hl7v2-parse', config: {}, position: { x: 0, y: 0 } },
  ],
  connections: [{ source: 'in', source_port: 'message', target: 'parse', target_port: 'text' }],
};

describe('runs claimed by a process (no queue job) and the process heartbeat', () => {
  let rt: Runtime;
  let queue: Queue;
  let close: () => Promise<void>;
  beforeAll(async () => {
    // the ports a deploy would open are not opened here
    ({ rt, queue, close } = await idleQueueRuntime());
    await queue.attachListeners({ listen: async () => {}, unlisten: async () => {}, closeAll: async () => {} }, async () => {});
  }, 60_000);
  afterAll(() => close());

  const instance = (): ClaimsOptions => ({ instanceId: randomUUID(), heartbeatSeconds: 10, enqueue: (tx, jobs) => enqueueRedelivered(queue.boss, tx, jobs) });
  const row = async (id: string) => (await rt.db.select().from(executions).where(eq(executions.id, id)))[0]!;

  it("hands a dead process's open runs to the queue as redelivered jobs, once, and never a live process's", async () => {
    const a = await orgCaller(rt, 'org-claims');
    const p = await a.pipelines.create({ name: 'feed', description: '', definition });
    const { deployed_version } = await a.pipelines.deploy({ id: p.id });
    const [live, dead, other] = [instance(), instance(), instance()];
    const admit = async (by: ClaimsOptions) => {
      const run = { orgId: 'org-claims', pipelineId: p.id, pipelineVersion: deployed_version!, trigger: 'mllp', testMode: false, inputs: {} };
      const [started] = await startQueuedExecutions(rt.db, [{ ...run, status: 'queued', notify: false, claimedBy: by.instanceId }]);
      return (started as { id: string }).id;
    };
    for (const o of [live, dead, other]) expect(await beat(rt.db, o)).toBe(false);
    const [liveRun, deadRun] = [await admit(live), await admit(dead)];
    expect((await row(deadRun)).claimedBy).toBe(dead.instanceId);

    // both beat: nothing is stale, nothing is handed on
    expect(await beat(rt.db, other)).toBe(false);
    expect(await handOver(rt.db, other, { stale: true })).toEqual({ queued: [], held: [] });
    // `dead` stops beating (its row is older than two intervals): its open run goes to the queue, the live one's stays
    await rt.db.execute(sql`update queue_processes set heartbeat_at = now() - interval '21 seconds' where id = ${dead.instanceId}::uuid`);
    expect(await beat(rt.db, other)).toBe(true);
    expect(await handOver(rt.db, other, { stale: true })).toEqual({ queued: [deadRun], held: [] });
    expect(await handOver(rt.db, other, { stale: true })).toEqual({ queued: [], held: [] });
    expect(await beat(rt.db, other)).toBe(false);
    expect((await row(liveRun)).claimedBy).toBe(live.instanceId);
    expect((await row(deadRun)).claimedBy).toBeNull();
    // and its heartbeat row, which holds nothing open any more
    expect(rowsOf(await rt.db.execute(sql`select id from queue_processes where id = ${dead.instanceId}::uuid`))).toEqual([]);

    // its job is fetched as a redelivery (the run resumes, keeping what it had finished); the live run has no job
    const jobs = await queue.boss.fetch<{ executionId: string }>(EXECUTE_QUEUE, { batchSize: 10 });
    expect(jobs.map((j) => [j.data.executionId, j.retryCount])).toEqual([[deadRun, 1]]);
    await queue.boss.complete(EXECUTE_QUEUE, jobs);
  });

  it('lets a process that lost its claim (stalled past its heartbeat) write nothing of the run, and its owner end it', async () => {
    const a = await orgCaller(rt, 'org-claims-stall');
    const p = await a.pipelines.create({ name: 'feed', description: '', definition });
    const { deployed_version } = await a.pipelines.deploy({ id: p.id });
    const [stalled, owner] = [instance(), instance()];
    await beat(rt.db, stalled);
    await beat(rt.db, owner);
    const run = { orgId: 'org-claims-stall', pipelineId: p.id, pipelineVersion: deployed_version!, trigger: 'mllp', testMode: false, inputs: {} };
    const started = await startQueuedExecutions(rt.db, [
      { ...run, status: 'queued', notify: false, claimedBy: stalled.instanceId },
      { ...run, status: 'queued', notify: false, claimedBy: owner.instanceId },
    ]);
    const [taken, kept] = started.map((s) => (s as { id: string }).id) as [string, string];
    await rt.db.execute(sql`update queue_processes set heartbeat_at = now() - interval '1 minute' where id = ${stalled.instanceId}::uuid`);
    expect(await handOver(rt.db, owner, { stale: true })).toEqual({ queued: [taken], held: [] });

    const end = (claimedBy: string) => ({ policy: 'errors', inputs: {}, claimedBy }) as const satisfies Parameters<typeof saveResult>[6];
    const result = { status: 'completed' as const, outputs: {}, nodes: {}, error: null };
    // the stalled process comes back and ends its run: nothing is written, neither its end nor a failure
    await saveResult(rt.db, taken, [], result, new Date(), undefined, end(stalled.instanceId));
    expect(await failExecution(rt.db, taken, { node_id: null, code: 'X', message: 'x' }, stalled.instanceId)).toBe(false);
    expect(await row(taken)).toMatchObject({ status: 'queued', claimedBy: null, finishedAt: null });
    // a run still held ends, and its claim with it
    await saveResult(rt.db, kept, [], result, new Date(), undefined, end(owner.instanceId));
    expect(await row(kept)).toMatchObject({ status: 'completed', claimedBy: null });
    const left = await rt.db
      .select()
      .from(executions)
      .where(inArray(executions.id, [taken, kept]));
    expect(left.map((r) => r.status).sort()).toEqual(['completed', 'queued']);
    const jobs = await queue.boss.fetch<{ executionId: string }>(EXECUTE_QUEUE, { batchSize: 10 });
    await queue.boss.complete(EXECUTE_QUEUE, jobs);
  });
  it("keeps the order of a dead process's chain of runs: those whose run before is open are claimed by the taker, to hold", async () => {
    const a = await orgCaller(rt, 'org-claims-chain');
    const p = await a.pipelines.create({ name: 'feed', description: '', definition });
    const { deployed_version } = await a.pipelines.deploy({ id: p.id });
    const [dead, taker] = [instance(), instance()];
    await beat(rt.db, dead);
    await beat(rt.db, taker);
    const run = { orgId: 'org-claims-chain', pipelineId: p.id, pipelineVersion: deployed_version!, trigger: 'mllp', testMode: false, inputs: {} };
    const [ended, head, second, third, afterEnded] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const by = { status: 'queued', notify: false, claimedBy: dead.instanceId } as const;
    await startQueuedExecutions(rt.db, [
      { ...run, ...by, id: ended },
      { ...run, ...by, id: head, afterId: ended },
      { ...run, ...by, id: second, afterId: head },
      { ...run, ...by, id: third, afterId: second },
      { ...run, ...by, id: afterEnded, afterId: ended },
    ]);
    expect((await row(third)).afterId).toBe(second);
    await saveResult(rt.db, ended, [], { status: 'completed', outputs: {}, nodes: {}, error: null }, new Date(), undefined, {
      policy: 'errors',
      inputs: {},
      claimedBy: dead.instanceId,
    });
    await rt.db.execute(sql`update queue_processes set heartbeat_at = now() - interval '1 minute' where id = ${dead.instanceId}::uuid`);

    const handed = await handOver(rt.db, taker, { stale: true });
    // the runs whose run before ended go to the queue; each of the others waits for its own, claimed by the taker
    expect(handed.queued.sort()).toEqual([head, afterEnded].sort());
    expect(handed.held.sort((x, y) => x.id.localeCompare(y.id))).toEqual(
      [
        { id: second, afterId: head },
        { id: third, afterId: second },
      ].sort((x, y) => x.id.localeCompare(y.id)),
    );
    expect((await row(second)).claimedBy).toBe(taker.instanceId);
    expect((await row(head)).claimedBy).toBeNull();
    // the dead process holds nothing any more: its heartbeat row is gone, and nothing is handed over twice
    expect(rowsOf(await rt.db.execute(sql`select id from queue_processes where id = ${dead.instanceId}::uuid`))).toEqual([]);
    expect(await handOver(rt.db, instance(), { stale: true })).toEqual({ queued: [], held: [] });
    const jobs = await queue.boss.fetch<{ executionId: string }>(EXECUTE_QUEUE, { batchSize: 10 });
    expect(jobs.map((j) => j.data.executionId).sort()).toEqual([head, afterEnded].sort());
    await queue.boss.complete(EXECUTE_QUEUE, jobs);
  });

  it('lets the process that ends a run take the runs another holds after it, along the chain: the holder forgets them, no job is queued', async () => {
    const a = await orgCaller(rt, 'org-claims-take');
    const p = await a.pipelines.create({ name: 'feed', description: '', definition });
    const { deployed_version } = await a.pipelines.deploy({ id: p.id });
    const worker = instance();
    await beat(rt.db, worker);
    const run = { orgId: 'org-claims-take', pipelineId: p.id, pipelineVersion: deployed_version!, trigger: 'mllp', testMode: false, inputs: {} };
    // three connections' chains: each a run queued for any process, then two held by this runtime's process (`queue`);
    // the first input large enough to be stored deflated
    const large = `MSH|^~\\&|${'A'.repeat(1500)}`;
    const chains = [0, 1, 2].map((): [string, string, string] => [randomUUID(), randomUUID(), randomUUID()]);
    const holder = { status: 'queued', notify: false, claimedBy: queue.instanceId } as const;
    // and a run the worker admitted and runs itself
    const local = randomUUID();
    await startQueuedExecutions(rt.db, [{ ...run, status: 'queued', notify: false, id: local, claimedBy: worker.instanceId }]);
    await startQueuedExecutions(
      rt.db,
      chains.flatMap(([head, first, second]) => [
        { ...run, status: 'queued' as const, notify: false, id: head },
        { ...run, ...holder, id: first, afterId: head, inputs: { message: large } },
        { ...run, ...holder, id: second, afterId: first, inputs: { message: 'MSH|^~\\&|small' } },
      ]),
    );
    queue.hold(
      chains.flatMap(([head, first, second], k) => [
        { id: first, afterId: head, key: `t${k}` },
        { id: second, afterId: first, key: `t${k}` },
      ]),
    );
    expect(queue.openFor('t0')).toBe(2);
    // the receiving processes are told each end of an MLLP run that may concern them, and the run it took (on Postgres
    // they listen: queue.ts)
    const told: string[] = [];
    const unlisten = await rt.database.pglite!.listen(FEED_ENDS_CHANNEL, (payload) => told.push(payload));

    const result = { status: 'completed' as const, outputs: {}, nodes: {}, error: null };
    const end = (id: string, claimedBy?: string, tell = true) =>
      saveResult(rt.db, id, [], result, new Date(), undefined, { policy: 'errors', inputs: {}, claimedBy, takeFor: worker.instanceId, tell });
    // the heads end in the worker together (one written alone, the others in one statement): each takes its own next run
    const taken = await Promise.all(chains.map(([head]) => end(head)));
    expect(taken).toEqual(chains.map(([, first]) => [first]));
    // each comes with what its run reads of its row: the process that took it runs it without reading it
    for (const [, first] of chains)
      expect(takeAdmitted(first)).toEqual({
        orgId: run.orgId,
        pipelineId: run.pipelineId,
        pipelineVersion: run.pipelineVersion,
        trigger: 'mllp',
        inputs: { message: large },
        policy: 'full',
      });
    for (const [, first] of chains) expect(await row(first)).toMatchObject({ claimedBy: worker.instanceId, status: 'queued' });
    // and so on along the chain, under the worker's claim
    expect(await Promise.all(chains.map(([, first]) => end(first, worker.instanceId)))).toEqual(chains.map(([, , second]) => [second]));
    expect(await end(chains[0]![2], worker.instanceId)).toEqual([]);
    // the end of a run admitted and run in the same process, which took nothing, concerns no other: it is not told
    expect(await end(local, worker.instanceId, false)).toEqual([]);
    const entries = [...chains.flatMap(([head, first, second]) => [`${head}:${first}`, `${first}:${second}`]), chains[0]![2]];
    await expect.poll(() => told.flatMap((p) => p.split(',')).sort(), { timeout: 5_000 }).toEqual(entries.sort());
    await unlisten();
    // the holder reads that they were taken: it holds none of them any more, and handed none to the queue
    // (those it took and did not end yet, running there, still count for their connection: open until they ended)
    await expect.poll(() => [0, 1, 2].map((k) => queue.openFor(`t${k}`)), { timeout: 5_000 }).toEqual([0, 1, 1]);
    const jobs = await queue.boss.fetch<{ executionId: string }>(EXECUTE_QUEUE, { batchSize: 20 });
    expect(jobs.map((j) => j.data.executionId).filter((id) => chains.some((c) => c.slice(1).includes(id)))).toEqual([]);
    if (jobs.length) await queue.boss.complete(EXECUTE_QUEUE, jobs);
  });
});
