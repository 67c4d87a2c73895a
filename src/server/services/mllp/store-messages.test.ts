import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executions } from '@/server/db/schema';
import { EXECUTE_QUEUE, type Queue } from '@/server/queue/queue';
import type { Runtime } from '@/server/runtime';
import type { Db } from '@/server/db/client';
import { saveResult } from '@/server/services/executions/node-records';
import { MAX_CONCURRENT_EXECUTIONS, startExecution } from '@/server/services/executions/start-execution';
import { idleQueueRuntime, orgCaller } from '../../../../tests/support/runtime';
import { MAX_OPEN_PER_CONNECTION, MessageStore } from './store-messages';

const result = { status: 'completed' as const, outputs: {}, nodes: {}, error: null };

/*
 * in (mllp-listener-trigger) ──message──▶ parse (hl7v2-parse)
 */
const definition = {
  nodes: [
    { id: 'in', type: 'mllp-listener-trigger', config: { port: 2575 }, position: { x: 0, y: 0 } },
    { id: 'parse', type: 'hl7v2-parse', config: {}, position: { x: 0, y: 0 } },
  ],
  connections: [{ source: 'in', source_port: 'message', target: 'parse', target_port: 'text' }],
};

const adt = (i: number) => `MSH|^~\\&|LAB|GHH|EHR|GHR|20240105083000||ADT^A08^ADT_A01|CTRL-${i}|P|2.5.1\rPID|1||PATID${i}^^^GHH^MR||DOE^JANE`;
const received = (i: number) => ({ text: adt(i), remoteAddress: '10.1.2.3', receivedAt: new Date().toISOString() });

describe('MLLP messages stored together (group commit)', () => {
  let rt: Runtime;
  let queue: Queue;
  let close: () => Promise<void>;
  beforeAll(async () => {
    // the jobs stay as written; the ports a deploy would open are not opened here
    ({ rt, queue, close } = await idleQueueRuntime());
    await queue.attachListeners({ listen: async () => {}, unlisten: async () => {}, closeAll: async () => {} }, async () => {});
  }, 60_000);
  afterAll(() => close());

  it('stores messages that arrive together as queued executions with their jobs, refusing only those of a pipeline not deployed', async () => {
    const a = await orgCaller(rt, 'org-feed');
    const feed = await a.pipelines.create({ name: 'feed', description: '', definition });
    await a.pipelines.deploy({ id: feed.id });
    const idle = await a.pipelines.create({ name: 'not deployed', description: '', definition });
    const store = new MessageStore(rt.db, queue);
    const feedTarget = { pipelineId: feed.id, orgId: 'org-feed' };
    // the first goes alone (nothing waits); the others queue up behind it and are committed together
    const sent = [0, 1, 2, 3, 4].map((i) => store.store(feedTarget, received(i)));
    const refused = store.store({ pipelineId: idle.id, orgId: 'org-feed' }, received(5));
    const another = store.store({ pipelineId: feed.id, orgId: 'org-other' }, received(6)); // not this organization's
    const ids = await Promise.all(sent);
    await expect(refused).rejects.toMatchObject({ code: 'PIPELINE_NOT_DEPLOYED' });
    await expect(another).rejects.toMatchObject({ code: 'PIPELINE_NOT_DEPLOYED' });

    const rows = await rt.db.select().from(executions).where(inArray(executions.id, ids));
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(ids.map((id) => byId.get(id))).toEqual(
      [0, 1, 2, 3, 4].map((i) =>
        expect.objectContaining({
          pipelineId: feed.id,
          status: 'queued',
          trigger: 'mllp',
          inputs: expect.objectContaining({ message: adt(i), remote_address: '10.1.2.3' }),
        }),
      ),
    );
    expect(await rt.db.select().from(executions).where(eq(executions.pipelineId, idle.id))).toEqual([]);
    // each stored execution has its queue job, so a worker runs it
    const jobs = await queue.boss.findJobs<{ executionId: string }>(EXECUTE_QUEUE);
    expect(
      jobs
        .map((j) => j.data.executionId)
        .filter((id) => ids.includes(id))
        .sort(),
    ).toEqual([...ids].sort());
  });
  it('keeps the pipeline state it read, yet admits on the version deployed now and refuses once it is undeployed elsewhere', async () => {
    const a = await orgCaller(rt, 'org-feed-state');
    const feed = await a.pipelines.create({ name: 'feed', description: '', definition });
    await a.pipelines.deploy({ id: feed.id });
    const store = new MessageStore(rt.db, queue);
    const target = { pipelineId: feed.id, orgId: 'org-feed-state' };
    const versionOf = async (id: string) => (await rt.db.select().from(executions).where(eq(executions.id, id)))[0]!.pipelineVersion;
    const first = await store.store(target, received(10));

    // deployed again with a new version, without this store being told: the message runs the version deployed now
    await a.pipelines.update({ id: feed.id, description: 'v2' });
    const redeployed = await a.pipelines.deploy({ id: feed.id });
    const second = await store.store(target, received(11));
    expect(await versionOf(second)).toBe(redeployed.deployed_version);
    expect(await versionOf(second)).toBeGreaterThan(await versionOf(first));

    // undeployed elsewhere: refused, nothing written; deployed again: admitted
    await a.pipelines.undeploy({ id: feed.id });
    await expect(store.store(target, received(12))).rejects.toMatchObject({ code: 'PIPELINE_NOT_DEPLOYED' });
    expect(await rt.db.select().from(executions).where(eq(executions.pipelineId, feed.id))).toHaveLength(2);
    await a.pipelines.deploy({ id: feed.id });
    expect(await versionOf(await store.store(target, received(13)))).toBe(redeployed.deployed_version);
  });

  it("holds a sender's messages after the run before them; past MAX_OPEN_PER_CONNECTION open they wait, then are refused, others go on", async () => {
    const a = await orgCaller(rt, 'org-feed-held');
    const feed = await a.pipelines.create({ name: 'feed', description: '', definition });
    await a.pipelines.deploy({ id: feed.id });
    const store = new MessageStore(rt.db, queue, 400);
    const target = { pipelineId: feed.id, orgId: 'org-feed-held' };
    store.opened('c1', `${feed.id} 10.1.2.3`);
    store.opened('c2', `${feed.id} 10.9.9.9`);
    // nothing works this queue: the first message's run stays queued, and every one after it is held behind it
    const started = performance.now();
    const sent = Array.from({ length: MAX_OPEN_PER_CONNECTION + 3 }, (_, i) =>
      store.store(target, { ...received(i), connection: 'c1' }).catch((e: unknown) => e),
    );
    const outcomes = await Promise.all(sent);
    // the last three waited for room (400 ms here) before they were refused: the queued run and the held ones are open
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
    const ids = outcomes.filter((o): o is string => typeof o === 'string');
    expect(ids).toHaveLength(MAX_OPEN_PER_CONNECTION);
    expect(outcomes.slice(MAX_OPEN_PER_CONNECTION)).toEqual([
      expect.objectContaining({ code: 'CONCURRENCY_LIMIT', message: expect.stringMatching(/earlier messages of this connection are still waiting/) }),
      expect.objectContaining({ code: 'CONCURRENCY_LIMIT' }),
      expect.objectContaining({ code: 'CONCURRENCY_LIMIT' }),
    ]);
    const rows = await rt.db.select().from(executions).where(inArray(executions.id, ids));
    const byId = new Map(rows.map((r) => [r.id, r]));
    // each names the one before it; the held ones are claimed by this process, and have no queue job
    expect(ids.map((id) => byId.get(id)!.afterId)).toEqual([null, ...ids.slice(0, -1)]);
    expect(ids.slice(1).every((id) => byId.get(id)!.claimedBy === queue.instanceId && byId.get(id)!.status === 'queued')).toBe(true);
    const jobs = await queue.boss.findJobs<{ executionId: string }>(EXECUTE_QUEUE, { data: { executionId: ids[1]! } });
    expect(jobs).toEqual([]);
    expect(queue.openFor('c1')).toBe(MAX_OPEN_PER_CONNECTION);
    // another connection is not held back by this one
    const other = await store.store(target, { ...received(99), connection: 'c2' });
    expect((await rt.db.select().from(executions).where(eq(executions.id, other)))[0]).toMatchObject({ afterId: null, claimedBy: null });
  });

  it('admits a message that waited for room once a run of its connection ended, after the last one admitted', async () => {
    const a = await orgCaller(rt, 'org-feed-room');
    const feed = await a.pipelines.create({ name: 'feed', description: '', definition });
    await a.pipelines.deploy({ id: feed.id });
    const store = new MessageStore(rt.db, queue);
    const target = { pipelineId: feed.id, orgId: 'org-feed-room' };
    store.opened('w1', `${feed.id} 10.4.4.4`);
    const ids = await Promise.all(Array.from({ length: MAX_OPEN_PER_CONNECTION }, (_, i) => store.store(target, { ...received(i), connection: 'w1' })));
    let waited: string | undefined;
    const next = store.store(target, { ...received(60), connection: 'w1' }).then((id) => (waited = id));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(waited).toBeUndefined(); // no room: it waits, neither stored nor refused
    // the first run ends (as a worker would end it), which makes room (the run after it is released: still open)
    await saveResult(rt.db, ids[0]!, [], result, new Date(), undefined, { policy: 'errors', inputs: {} });
    const id = await next;
    expect((await rt.db.select().from(executions).where(eq(executions.id, id)))[0]).toMatchObject({ afterId: ids.at(-1), claimedBy: queue.instanceId });
  });

  it("under order by patient, starts each run after the sender's run before it about the same patient, on any connection", async () => {
    const a = await orgCaller(rt, 'org-feed-patient');
    const feed = await a.pipelines.create({ name: 'feed', description: '', definition });
    await a.pipelines.deploy({ id: feed.id });
    const store = new MessageStore(rt.db, queue);
    const target = { pipelineId: feed.id, orgId: 'org-feed-patient' };
    store.opened('p1', `${feed.id} 10.5.5.5`);
    store.opened('p2', `${feed.id} 10.5.5.5`);
    store.opened('q1', `${feed.id} 10.6.6.6`);
    const send = (i: number, connection: string, orderKey: string) => store.store(target, { ...received(i), connection, orderKey });
    // nothing works this queue: a patient's first run stays queued, and the next about that patient is held behind it
    const [a1, b1, a2, c1, b2] = await Promise.all([send(1, 'p1', 'A'), send(2, 'p1', 'B'), send(3, 'p1', 'A'), send(4, 'p1', ''), send(5, 'p1', 'B')]);
    const a3 = await send(6, 'p2', 'A'); // the same sender's other connection: after its last run about A
    const other = await send(7, 'q1', 'A'); // another sender's patient A: its own order
    const ids = [a1, b1, a2, c1, b2, a3, other];
    const rows = new Map((await rt.db.select().from(executions).where(inArray(executions.id, ids))).map((r) => [r.id, r]));
    expect(ids.map((id) => rows.get(id)!.afterId)).toEqual([null, null, a1, null, b1, a2, null]);
    expect(ids.map((id) => rows.get(id)!.claimedBy === queue.instanceId)).toEqual([false, false, true, false, true, true, false]);
    expect(queue.openFor('p1')).toBe(5); // queued or held, each counts until it ended
  });

  it("starts the first messages of a sender's new connections, opened together, once its last run ended: each of them", async () => {
    const a = await orgCaller(rt, 'org-feed-reconnect');
    const feed = await a.pipelines.create({ name: 'feed', description: '', definition });
    await a.pipelines.deploy({ id: feed.id });
    const store = new MessageStore(rt.db, queue);
    const target = { pipelineId: feed.id, orgId: 'org-feed-reconnect' };
    const sender = `${feed.id} 10.1.2.3`;
    store.opened('r1', sender);
    const last = await store.store(target, { ...received(1), connection: 'r1' });
    store.closed('r1');
    // the sender comes back on three connections at once: each first message starts after its last run
    for (const c of ['r2', 'r3', 'r4']) store.opened(c, sender);
    const next = await Promise.all(['r2', 'r3', 'r4'].map((c, i) => store.store(target, { ...received(10 + i), connection: c })));
    const rows = await rt.db.select().from(executions).where(inArray(executions.id, next));
    expect(rows.map((r) => [r.afterId, r.claimedBy])).toEqual(next.map(() => [last, queue.instanceId]));
    // that run ends (as a worker would end it): all three are handed to the queue, none left behind
    await saveResult(rt.db, last, [], result, new Date(), undefined, { policy: 'errors', inputs: {} });
    await expect
      .poll(async () => (await rt.db.select().from(executions).where(inArray(executions.id, next))).map((r) => r.claimedBy), { timeout: 5_000 })
      .toEqual([null, null, null]);
    const jobs = await queue.boss.fetch<{ executionId: string }>(EXECUTE_QUEUE, { batchSize: 20 });
    expect(
      jobs
        .map((j) => j.data.executionId)
        .filter((id) => next.includes(id))
        .sort(),
    ).toEqual([...next].sort());
  });

  it('refuses the messages that arrived behind one refused for a full organization, though a slot freed since: sent again, it runs first', async () => {
    const orgId = 'org-feed-full';
    const a = await orgCaller(rt, orgId);
    const feed = await a.pipelines.create({ name: 'feed', description: '', definition });
    const { deployed_version: version } = await a.pipelines.deploy({ id: feed.id });
    // the organization's 100 slots taken by queued runs nothing works
    const fillers: string[] = [];
    for (let i = 0; i < MAX_CONCURRENT_EXECUTIONS; i++) {
      const run = { orgId, pipelineId: feed.id, pipelineVersion: version!, trigger: 'api', testMode: false, inputs: {}, status: 'queued' as const };
      fillers.push((await startExecution(rt.db, run)).id);
    }
    const endOne = () => saveResult(rt.db, fillers.shift()!, [], result, new Date(), undefined, { policy: 'errors', inputs: {} });
    // the first admission (its transaction: this process runs none of the queue here) refuses, and then a run of the
    // organization ends, before the next batch is admitted
    let freed = false;
    const db = new Proxy(rt.db, {
      get: (target, prop) =>
        prop === 'transaction'
          ? async (...args: Parameters<Db['transaction']>) => {
              const answer = await target.transaction(...args).finally(() => !freed && endOne().then(() => (freed = true)));
              return answer;
            }
          : Reflect.get(target, prop),
    });
    const store = new MessageStore(db, queue);
    const target = { pipelineId: feed.id, orgId };
    store.opened('f1', `${feed.id} 10.7.7.7`);
    const send = (i: number) => store.store(target, { ...received(i), connection: 'f1' });
    // a sender that does not wait for each ACK: the first goes alone, the two behind it arrive while it is refused
    const outcomes = await Promise.all([1, 2, 3].map((i) => send(i).catch((e: unknown) => e)));
    expect(freed).toBe(true);
    expect(outcomes).toEqual([
      expect.objectContaining({ code: 'CONCURRENCY_LIMIT', message: expect.stringMatching(/At most 100 executions/) }),
      expect.objectContaining({ code: 'CONCURRENCY_LIMIT', message: expect.stringMatching(/sent before this one.* was refused/) }),
      expect.objectContaining({ code: 'CONCURRENCY_LIMIT', message: expect.stringMatching(/sent before this one.* was refused/) }),
    ]);
    // sent again in order, they run in order: the first in the slot that freed, the second after it once another did
    const first = await send(1);
    await endOne();
    const second = await send(2);
    const rows = new Map(
      (
        await rt.db
          .select()
          .from(executions)
          .where(inArray(executions.id, [first, second]))
      ).map((r) => [r.id, r]),
    );
    expect([rows.get(first)!.afterId, rows.get(second)!.afterId]).toEqual([null, first]);
  });

  it('admits anew, in order, the messages of a connection whose pipeline was deployed again since the store read it', async () => {
    const a = await orgCaller(rt, 'org-feed-changed');
    const feed = await a.pipelines.create({ name: 'feed', description: '', definition });
    const side = await a.pipelines.create({ name: 'side', description: '', definition });
    await a.pipelines.deploy({ id: feed.id });
    await a.pipelines.deploy({ id: side.id });
    const store = new MessageStore(rt.db, queue);
    await store.store({ pipelineId: feed.id, orgId: 'org-feed-changed' }, received(1)); // its state read
    await a.pipelines.update({ id: feed.id, description: 'v2' });
    await a.pipelines.deploy({ id: feed.id });
    store.opened('g1', `${feed.id} 10.8.8.8`);
    // one message of another pipeline goes alone; the two of the connection, behind it, are admitted in one statement,
    // where the first is refused as changed, and the second, after it, with it: both admitted anew, in order
    const alone = store.store({ pipelineId: side.id, orgId: 'org-feed-changed' }, received(2));
    const [x, y] = await Promise.all([2, 3].map((i) => store.store({ pipelineId: feed.id, orgId: 'org-feed-changed' }, { ...received(i), connection: 'g1' })));
    await alone;
    const rows = new Map(
      (
        await rt.db
          .select()
          .from(executions)
          .where(inArray(executions.id, [x!, y!]))
      ).map((r) => [r.id, r]),
    );
    expect([rows.get(x!)!.afterId, rows.get(y!)!.afterId]).toEqual([null, x]);
  });
});
