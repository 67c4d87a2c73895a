import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/server/db/client';
import { migratedPostgres } from '@/server/db/test-support';
import { organizations, pipelines } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { startExecution } from './start-execution';

// Admissions on Postgres, many at once, as two server processes make them: an organization's first ones make its
// slot rows while the others look for a free one.
describe('admitting executions (Postgres)', () => {
  let database: Database;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ database, close } = await migratedPostgres('admit', 20));
  });
  afterAll(() => close?.());

  it('admits every one of a new organization\'s first 40 concurrent executions (100 slots), in each of 10 organizations', async () => {
    const refused: string[] = [];
    for (let o = 0; o < 10; o++) {
      const orgId = `admit-${o}`;
      await database.db.insert(organizations).values({ id: orgId, name: orgId });
      const [p] = await database.db.insert(pipelines).values({ orgId, name: 'p', definition: { nodes: [], connections: [] } }).returning({ id: pipelines.id });
      const runs = Array.from({ length: 40 }, () =>
        startExecution(database.db, { orgId, pipelineId: p!.id, pipelineVersion: 1, trigger: 'api', testMode: false, inputs: {}, status: 'queued' }).catch((e: unknown) => {
          if (e instanceof AppError) refused.push(`${orgId}: ${e.code}`);
          else throw e;
        }),
      );
      await Promise.all(runs);
    }
    expect(refused).toEqual([]);
  });
});
