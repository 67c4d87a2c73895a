import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../../tests/support/postgres';
import { openDatabase, type Database } from '@/server/db/client';
import { migrateDatabase } from '@/server/db/migrate';
import { organizations, pipelines } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { startExecution } from './start-execution';

// Admissions on Postgres, many at once, as two server processes make them: an organization's first ones make its
// slot rows while the others look for a free one.
describe('admitting executions (Postgres)', () => {
  let test: Awaited<ReturnType<typeof createTestDatabase>>;
  let database: Database;
  beforeAll(async () => {
    test = await createTestDatabase('admit');
    database = await openDatabase({ url: test.url, max: 20 });
    await migrateDatabase(database, test.url);
  });
  afterAll(async () => {
    await database?.close();
    await test?.drop();
  });

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
