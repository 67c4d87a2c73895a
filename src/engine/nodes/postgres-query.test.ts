import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectChecked } from '@/server/outbound/connect';
import { OutboundError } from '@/shared/outbound-error';
import { OutboundPolicy } from '@/server/outbound/policy';
import { closePools } from '../lib/postgres';
import { NodeError } from '../node-error';
import { failure, runNode, SYNTHEA_PATIENTS, testContext, testServices } from '../../../tests/support/engine/node-context';
import { PG_URL as URL_, pgConnector, pgServices } from '../../../tests/support/postgres-query';
import { postgresQueryNode as query } from './postgres-query.execute';

const schema = `pgq_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
const admin = postgres(URL_, { max: 1, onnotice: () => {} });

beforeAll(async () => {
  await admin.unsafe(`create schema ${schema}`);
  await admin.unsafe(`create table ${schema}.patients (id text primary key, family text, birth_date date, gender text, profile jsonb)`);
  for (const p of SYNTHEA_PATIENTS) {
    await admin`insert into ${admin(schema + '.patients')} ${admin({ id: p.id, family: p.name[0]!.family, birth_date: p.birthDate, gender: p.gender, profile: admin.json(p as never) })}`;
  }
});

afterAll(async () => {
  await closePools();
  await admin.unsafe(`drop schema if exists ${schema} cascade`);
  await admin.end();
});

describe('postgres-query', () => {
  it('binds params from the input and returns the rows as JSON', async () => {
    const { services } = pgServices(pgConnector({ schema }));
    const r = await runNode(
      query,
      { connector: 'warehouse', sql: 'select id, family, birth_date, profile from patients where gender = $1 order by family', params: ['gender'] },
      { input: { gender: 'male' } },
      testContext({ services }),
    );
    const rows = r.outputs.rows as Record<string, unknown>[];
    expect(rows.map((x) => x.family)).toEqual(['Cole117', 'Schmitt836']);
    expect(rows[0]).toMatchObject({ id: '3af3708d-41f1-cd80-f3dd-ec5ac76072bf', birth_date: '1960-04-13', profile: { resourceType: 'Patient' } });
  });

  it('cannot be turned into another query by its input', async () => {
    const { services } = pgServices(pgConnector({ schema }));
    const r = await runNode(
      query,
      { connector: 'warehouse', sql: 'select id from patients where family = $1', params: ['family'] },
      { input: { family: "x' or '1'='1" } },
      testContext({ services }),
    );
    expect(r.outputs.rows).toEqual([]);
  });

  it('reads at most max_rows rows and says so', async () => {
    const { services } = pgServices(pgConnector({ schema }));
    const ctx = testContext({ services });
    const r = await runNode(query, { connector: 'warehouse', sql: 'select id from patients order by id', max_rows: 3 }, {}, ctx);
    expect(r.outputs.rows).toHaveLength(3);
    expect(ctx.logs.some((l) => l.level === 'warn' && l.message.includes('max_rows'))).toBe(true);
  });

  it('runs read-only: a write fails and changes nothing', async () => {
    const { services } = pgServices(pgConnector({ schema }));
    const e = await failure(runNode(query, { connector: 'warehouse', sql: "delete from patients where gender = 'male'" }, {}, testContext({ services })));
    expect(e.code).toBe('POSTGRES_ERROR');
    expect(e.message).toContain('25006');
    const [row] = await admin.unsafe(`select count(*)::int as count from ${schema}.patients`);
    expect(row!.count).toBe(SYNTHEA_PATIENTS.length);
  });

  it('cancels a query that runs longer than timeout_ms', async () => {
    const { services } = pgServices(pgConnector({ schema }));
    const e = await failure(runNode(query, { connector: 'warehouse', sql: 'select pg_sleep(5)', timeout_ms: 200 }, {}, testContext({ services })));
    expect(e.code).toBe('POSTGRES_TIMEOUT');
  });

  it('says what to set when dropped with its default config', async () => {
    expect((await failure(runNode(query, {}, {}))).code).toBe('CONNECTOR_REQUIRED');
    const { services } = pgServices(pgConnector({ schema }));
    expect((await failure(runNode(query, { connector: 'warehouse' }, {}, testContext({ services })))).code).toBe('SQL_REQUIRED');
  });

  it('is refused by the outbound policy for a host it does not allow', async () => {
    const handle = pgConnector({ url: 'postgres://postgres@169.254.169.254:5432/test', id: 'pg-metadata' });
    const services = testServices({
      connector: async () => handle,
      connect: async ({ host, port }) => {
        try {
          return await connectChecked({ host, port, policy: new OutboundPolicy(), timeoutMs: 1000 });
        } catch (e) {
          throw e instanceof OutboundError ? new NodeError(e.code, e.message) : e;
        }
      },
    });
    const e = await failure(runNode(query, { connector: 'warehouse', sql: 'select 1' }, {}, testContext({ services })));
    expect(e.code).toBe('OUTBOUND_REFUSED');
  });
});
