import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/server/db/client';
import { errorForLog } from './logger';

describe('errorForLog', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
  });
  afterAll(() => database.close());

  it('keeps the parameters of a failed statement (patient data) and the values the database quotes out of the log', async () => {
    const failure = await database.db.execute(sql`select ${'PATIENT-EVERYMAN-1234'}::uuid as id, ${'123-45-6789'} as ssn`).catch((e: unknown) => e);
    const text = errorForLog(failure);
    expect(text).toMatch(/^database statement failed: invalid input syntax for type uuid: "…" \[22P02\] — in: select \$1::uuid as id, \$2 as ssn/);
    expect(text).not.toContain('EVERYMAN');
    expect(text).not.toContain('123-45-6789');
    expect(text).toContain('\n    at '); // where it happened is kept
  });

  it('gives other errors with their stack', () => {
    expect(errorForLog(new Error('boom'))).toMatch(/^Error: boom\n/);
    expect(errorForLog('plain')).toBe('plain');
  });

  it('reads a plain object a library threw (pg-boss) instead of writing [object Object]', () => {
    expect(errorForLog({ message: 'connect ECONNREFUSED 127.0.0.1:5432', code: 'ECONNREFUSED' })).toBe('connect ECONNREFUSED 127.0.0.1:5432 [ECONNREFUSED]');
    // any other object: its fields, never their values (a job's data may be patient data)
    expect(errorForLog({ state: 'failed', data: { mrn: 'MRN-123' } })).toBe('[object Object] with state, data');
  });
});
