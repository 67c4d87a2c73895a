import postgres from 'postgres';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { closePools } from '../lib/postgres';
import { failure, runNode, SYNTHEA_CONDITIONS, testContext } from '../../../tests/support/engine/node-context';
import { PG_URL, pgConnector, pgServices } from '../../../tests/support/postgres-query';
import { postgresWriteNode as write } from './postgres-write.execute';

const schema = `pgw_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
const admin = postgres(PG_URL, { max: 1, onnotice: () => {} });
const table = `${schema}.conditions`;

const mapping = {
  id: 'id',
  patient_id: '$substringAfter(subject.reference, "/")',
  status: 'clinicalStatus.coding[0].code',
  code: 'code.coding[0].code',
  resource: '$',
};

async function stored() {
  return admin.unsafe(`select id, patient_id, status, code, resource from ${table} order by id`);
}

beforeEach(async () => {
  await admin.unsafe(`drop schema if exists ${schema} cascade`);
  await admin.unsafe(`create schema ${schema}`);
  await admin.unsafe(`create table ${table} (id text primary key, patient_id text not null, status text, code text, resource jsonb)`);
});

afterAll(async () => {
  await closePools();
  await admin.unsafe(`drop schema if exists ${schema} cascade`);
  await admin.end();
});

describe('postgres-write', () => {
  it('inserts mapped rows into a real table', async () => {
    const { services } = pgServices(pgConnector());
    const r = await runNode(write, { connector: 'warehouse', table, columns: mapping }, { rows: SYNTHEA_CONDITIONS }, testContext({ services }));
    expect(r.outputs.result).toEqual({ table, mode: 'insert', written: 5, skipped: 0 });
    const rows = await stored();
    expect(rows).toHaveLength(5);
    const anemia = rows.find((x) => x.id === '112da742-a58a-ec99-6143-e3292c652737')!;
    expect(anemia).toMatchObject({ patient_id: '129c6ac7-8d06-89de-ad63-0204a93e76c3', status: 'active', code: '271737000' });
    expect(anemia.resource).toMatchObject({ resourceType: 'Condition', code: { text: 'Anemia (disorder)' } });
  });

  it('upserts on the key: a retry writes nothing twice and changed rows are updated', async () => {
    const { services } = pgServices(pgConnector({ schema }));
    const config = { connector: 'warehouse', table: 'conditions', mode: 'upsert', conflict_columns: ['id'], columns: mapping };
    await runNode(write, config, { rows: SYNTHEA_CONDITIONS }, testContext({ services }));
    const resolved = SYNTHEA_CONDITIONS.map((c) => ({ ...c, clinicalStatus: { coding: [{ code: 'resolved' }] } }));
    const r = await runNode(write, config, { rows: resolved }, testContext({ services }));
    expect(r.outputs.result).toMatchObject({ written: 5 });
    const rows = await stored();
    expect(rows).toHaveLength(5);
    expect(new Set(rows.map((x) => x.status))).toEqual(new Set(['resolved']));
  });

  it('insert with key columns skips rows already there', async () => {
    const { services } = pgServices(pgConnector());
    const config = { connector: 'warehouse', table, conflict_columns: ['id'], columns: mapping };
    await runNode(write, config, { rows: SYNTHEA_CONDITIONS.slice(0, 2) }, testContext({ services }));
    const r = await runNode(write, config, { rows: SYNTHEA_CONDITIONS }, testContext({ services }));
    expect(r.outputs.result).toMatchObject({ written: 3, skipped: 2 });
    expect(await stored()).toHaveLength(5);
  });

  it('writes one object as one row, with its own fields when there is no mapping', async () => {
    const { services } = pgServices(pgConnector());
    await runNode(
      write,
      { connector: 'warehouse', table },
      { rows: { id: 'c-1', patient_id: 'p-1', status: 'active', code: '44054006', resource: { note: 'a jsonb value' } } },
      testContext({ services }),
    );
    expect(await stored()).toEqual([{ id: 'c-1', patient_id: 'p-1', status: 'active', code: '44054006', resource: { note: 'a jsonb value' } }]);
  });

  it('writes all rows or none', async () => {
    const { services } = pgServices(pgConnector());
    const rows = [
      { id: 'ok', patient_id: 'p-1' },
      { id: 'bad', patient_id: null },
    ];
    const e = await failure(runNode(write, { connector: 'warehouse', table }, { rows }, testContext({ services })));
    expect(e.code).toBe('POSTGRES_ERROR');
    expect(e.message).toContain('23502');
    expect(await stored()).toHaveLength(0);
  });

  it('in test mode connects to nothing and returns the rows it would write', async () => {
    const { services, counter } = pgServices(pgConnector());
    const r = await runNode(
      write,
      { connector: 'warehouse', table, columns: mapping },
      { rows: SYNTHEA_CONDITIONS.slice(0, 1) },
      testContext({ testMode: true, services }),
    );
    expect(r.simulated).toBe(true);
    expect(r.outputs.result).toMatchObject({
      simulated: true,
      table,
      mode: 'insert',
      rows: [{ id: '0070163b-65cf-dec8-3019-6221f0ae0560', patient_id: '6a4160eb-a793-2f86-2302-378626f46cce', status: 'resolved' }],
    });
    expect(counter.connections).toBe(0);
    expect(await stored()).toHaveLength(0);
  });

  it('says what to set when dropped with its default config', async () => {
    expect((await failure(runNode(write, {}, { rows: [] }))).code).toBe('CONNECTOR_REQUIRED');
    const { services } = pgServices(pgConnector());
    expect((await failure(runNode(write, { connector: 'warehouse' }, { rows: [{ id: 1 }] }, testContext({ services })))).code).toBe('TABLE_REQUIRED');
    expect(write.config.safeParse({ mode: 'upsert' }).success).toBe(false);
    expect((await failure(runNode(write, { connector: 'warehouse', table }, { rows: 'text' }, testContext({ services })))).code).toBe('INVALID_ROWS');
  });
});
