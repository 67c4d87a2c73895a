import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '@/server/db/client';
import { migratedDatabase, migratedPostgres } from '../../../../tests/support/databases';
import { executions, organizations, pipelines } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import {
  AFTER_REFUSED,
  MAX_CONCURRENT_EXECUTIONS,
  PIPELINE_CHANGED,
  startExecution,
  startIfCurrent,
  startQueuedExecutions,
  type NewExecution,
} from './start-execution';

// Admissions on Postgres, many at once, as two server processes make them: an organization's first ones make its
// slot rows while the others look for a free one.
describe('admitting executions (Postgres)', () => {
  let database: Database;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ database, close } = await migratedPostgres('admit', 20));
  });
  afterAll(() => close?.());

  it("admits every one of a new organization's first 40 concurrent executions (100 slots), in each of 10 organizations", async () => {
    const refused: string[] = [];
    for (let o = 0; o < 10; o++) {
      const orgId = `admit-${o}`;
      await database.db.insert(organizations).values({ id: orgId, name: orgId });
      const [p] = await database.db
        .insert(pipelines)
        .values({ orgId, name: 'p', definition: { nodes: [], connections: [] } })
        .returning({ id: pipelines.id });
      const runs = Array.from({ length: 40 }, () =>
        startExecution(database.db, { orgId, pipelineId: p!.id, pipelineVersion: 1, trigger: 'api', testMode: false, inputs: {}, status: 'queued' }).catch(
          (e: unknown) => {
            if (e instanceof AppError) refused.push(`${orgId}: ${e.code}`);
            else throw e;
          },
        ),
      );
      await Promise.all(runs);
    }
    expect(refused).toEqual([]);
  });
});

// A start on the version a process saw last: admitted only while that version is current (and deployed, if asked),
// else nothing is written, not even what the start's own transaction wrote first (the async path's queue job).
describe.each(['postgres', 'pglite'] as const)('starting on a version seen before (%s)', (kind) => {
  let database: Database;
  let close: (() => Promise<void>) | undefined;
  const orgId = 'seen-org';
  let pipelineId = '';
  const run = (version: number, status: NewExecution['status'] = 'running'): NewExecution => ({
    orgId,
    pipelineId,
    pipelineVersion: version,
    trigger: 'api',
    testMode: false,
    inputs: { n: 1 },
    status,
  });
  const count = async () => (await database.db.select({ id: executions.id }).from(executions).where(eq(executions.pipelineId, pipelineId))).length;
  beforeAll(async () => {
    ({ database, close } = await migratedDatabase(kind, 'seen', 5));
    await database.db.insert(organizations).values({ id: orgId, name: orgId });
    const [p] = await database.db
      .insert(pipelines)
      .values({ orgId, name: 'p', definition: { nodes: [], connections: [] }, status: 'deployed', version: 2, deployedVersion: 2 })
      .returning({ id: pipelines.id });
    pipelineId = p!.id;
  });
  afterAll(() => close?.());

  it('starts while the version is current and deployed, and writes the execution of that version', async () => {
    const started = await startIfCurrent(database.db, run(2), true);
    expect(started?.id).toBeDefined();
    const [row] = await database.db.select().from(executions).where(eq(executions.id, started!.id));
    expect(row).toMatchObject({ pipelineVersion: 2, status: 'running', inputs: { n: 1 } });
  });

  it("reads the pipeline's data policy in the admission (the organization's, unless the pipeline sets its own)", async () => {
    expect((await startIfCurrent(database.db, run(2), true))?.policy).toBe('full');
    await database.db
      .update(organizations)
      .set({ dataSettings: { policy: 'errors' } })
      .where(eq(organizations.id, orgId));
    expect((await startExecution(database.db, run(2))).policy).toBe('errors');
    await database.db
      .update(pipelines)
      .set({ dataSettings: { policy: 'metadata' } })
      .where(eq(pipelines.id, pipelineId));
    expect((await startIfCurrent(database.db, run(2), true))?.policy).toBe('metadata');
    await database.db.update(pipelines).set({ dataSettings: {} }).where(eq(pipelines.id, pipelineId));
    await database.db.update(organizations).set({ dataSettings: {} }).where(eq(organizations.id, orgId));
  });

  it('writes nothing once the pipeline has a newer version, or is no longer deployed for a real run', async () => {
    const before = await count();
    expect(await startIfCurrent(database.db, run(1), true)).toBeNull();
    await database.db.update(pipelines).set({ status: 'active' }).where(eq(pipelines.id, pipelineId));
    expect(await startIfCurrent(database.db, run(2), true)).toBeNull();
    expect(await startIfCurrent(database.db, run(2), false)).not.toBeNull(); // a test run needs no deploy
    expect(await count()).toBe(before + 1);
    await database.db.update(pipelines).set({ status: 'deployed' }).where(eq(pipelines.id, pipelineId));
  });

  it('admits a real run on the deployed version, not on a version saved since (which only test runs use)', async () => {
    const before = await count();
    await database.db.update(pipelines).set({ version: 3 }).where(eq(pipelines.id, pipelineId)); // saved, not deployed
    expect(await startIfCurrent(database.db, run(3), true)).toBeNull();
    expect(await startIfCurrent(database.db, run(2), true)).not.toBeNull();
    expect(await startIfCurrent(database.db, run(2), false)).toBeNull();
    expect(await startIfCurrent(database.db, run(3), false)).not.toBeNull();
    await database.db.update(pipelines).set({ status: 'active', deployedVersion: null }).where(eq(pipelines.id, pipelineId));
    expect(await startIfCurrent(database.db, run(2), true)).toBeNull(); // undeployed: no version runs for real
    expect(await count()).toBe(before + 2);
    await database.db.update(pipelines).set({ status: 'deployed', version: 2, deployedVersion: 2 }).where(eq(pipelines.id, pipelineId));
  });

  it('rolls back what the transaction wrote before the admission when the version changed', async () => {
    await database.db.execute(sql`create table if not exists seen_jobs (execution_id uuid)`);
    const job = (tx: Db, executionId: string) => tx.execute(sql`insert into seen_jobs values (${executionId}::uuid)`).then(() => executionId);
    expect(await startIfCurrent(database.db, run(1, 'queued'), true, job)).toBeNull();
    const ok = await startIfCurrent(database.db, run(2, 'queued'), true, job);
    const jobs = await database.db.execute(sql`select execution_id from seen_jobs`);
    expect((Array.isArray(jobs) ? jobs : (jobs as { rows: unknown[] }).rows).map((r) => (r as { execution_id: string }).execution_id)).toEqual([ok!.extra]);
  });

  it('admits in one statement a run after one admitted before it there, and refuses one whose run before it there was not', async () => {
    const [a, b, c, d, e] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const queued = (id: string, version: number, afterId?: string, afterInBatch?: boolean): NewExecution => ({
      ...run(version, 'queued'),
      id,
      afterId,
      afterInBatch,
      notify: false,
    });
    // c is of a version no longer deployed: refused; d after it in the statement is refused too; e names it as a run
    // of before this statement (one pruned since, say), which does not hold it back
    const outcomes = await startQueuedExecutions(database.db, [
      queued(a, 2),
      queued(b, 2, a, true),
      queued(c, 1, b, true),
      queued(d, 2, c, true),
      queued(e, 2, c),
    ]);
    expect(outcomes).toEqual([{ id: a, policy: 'full' }, { id: b, policy: 'full' }, PIPELINE_CHANGED, AFTER_REFUSED, { id: e, policy: 'full' }]);
    const rows = await database.db
      .select({ id: executions.id, afterId: executions.afterId })
      .from(executions)
      .where(inArray(executions.id, [a, b, c, d, e]));
    expect(new Map(rows.map((r) => [r.id, r.afterId]))).toEqual(
      new Map([
        [a, null],
        [b, a],
        [e, c],
      ]),
    );
  });

  it('refuses with CONCURRENCY_LIMIT when every slot is taken, as startExecution does', async () => {
    const running = await database.db.select({ id: executions.id }).from(executions).where(eq(executions.status, 'running'));
    const queued = await database.db.select({ id: executions.id }).from(executions).where(eq(executions.status, 'queued'));
    for (let i = running.length + queued.length; i < MAX_CONCURRENT_EXECUTIONS; i++) await startExecution(database.db, run(2));
    await expect(startIfCurrent(database.db, run(2), true)).rejects.toMatchObject({ code: 'CONCURRENCY_LIMIT' });
    await expect(startIfCurrent(database.db, run(1), true)).resolves.toBeNull(); // the version is checked first
  });
});
