import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { validateFhir } from '@/clinical/fhir/validate';
import { rowsOf } from '@/server/db/rows';
import { auditEvents } from '@/server/db/schema';
import { migratedPostgres } from '../../../../tests/support/databases';
import { createRuntime, type Runtime } from '@/server/runtime';
import { memoryRuntime, orgCaller } from '../../../../tests/support/runtime';
import { serviceContext } from '../context';
import { exportAuditNdjson } from './export';
import { pruneAudit } from './prune';

/* in (manual-trigger, field patient: json) ──patient──▶ out (pipeline-output "patient") */
const definition = {
  nodes: [
    { id: 'in', type: 'manual-trigger', config: { fields: { patient: 'json' } }, position: { x: 0, y: 0 } },
    { id: 'out', type: 'pipeline-output', config: { key: 'patient' }, position: { x: 240, y: 0 } },
  ],
  connections: [{ id: 'c1', source: 'in', source_port: 'patient', target: 'out', target_port: 'value' }],
};
const PATIENT = 'Quixote-Audit';

/** The database's refusal, under drizzle's "Failed query" wrapper. */
async function refusal(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err as Error & { cause?: Error },
  );
  return String(e?.cause?.message ?? e?.message ?? 'no error');
}

describe.each(['pglite', 'postgres'] as const)('the audit trail (%s)', (kind) => {
  let rt: Runtime;
  let close: () => Promise<void>;
  beforeAll(async () => {
    if (kind === 'postgres') {
      const pg = await migratedPostgres('audit');
      rt = await createRuntime(pg.database, { rateLimitPerWindow: 1_000_000 });
      close = pg.close;
    } else {
      rt = await memoryRuntime();
      close = () => rt.database.close();
    }
  });
  afterAll(async () => close());

  it('records who saved a pipeline and read a run’s payloads, never the payload, and exports valid FHIR R4 AuditEvents', async () => {
    const org = `audit-${kind}`;
    const c = await orgCaller(rt, org);
    const p = await c.pipelines.create({ name: 'Audited feed', definition });
    const run = await c.executions.execute({ pipeline_id: p.id, inputs: { patient: { name: PATIENT } }, test_mode: true, async: false });
    const detail = await c.executions.get({ id: run.execution_id });
    expect(JSON.stringify(detail)).toContain(PATIENT);

    const list = await c.audit.list({ limit: 50, offset: 0 });
    expect(list.events.map((e) => e.action)).toEqual(['execution.read', 'pipeline.create']);
    const read = list.events[0]!;
    expect(read).toMatchObject({
      actor: { type: 'api-key', id: '00000000-0000-4000-8000-000000000001' },
      object: { type: 'execution', id: run.execution_id },
      outcome: 'success',
      detail: { pipeline_id: p.id, status: 'completed' },
    });
    expect(list.events[1]!.object).toEqual({ type: 'pipeline', id: p.id, name: 'Audited feed' });
    expect((await c.audit.list({ action: 'pipeline', limit: 50, offset: 0 })).events.map((e) => e.action)).toEqual(['pipeline.create']);
    expect((await c.audit.list({ object_id: run.execution_id, limit: 50, offset: 0 })).total_count).toBe(1);
    // another organization sees none of it
    const other = await orgCaller(rt, `audit-other-${kind}`);
    expect((await other.audit.list({ limit: 50, offset: 0 })).total_count).toBe(0);

    const stored = rowsOf(await rt.db.execute(sql`select * from audit_events where org_id = ${org}`));
    expect(JSON.stringify(stored)).not.toContain(PATIENT);

    const principal = { kind: 'api-key' as const, orgId: org, scopes: ['admin'], keyId: '00000000-0000-4000-8000-000000000001', address: '10.1.2.3' };
    let ndjson = '';
    for await (const chunk of exportAuditNdjson(serviceContext(rt, principal), {})) ndjson += chunk;
    const events = ndjson
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.map((e) => e.subtype[1].code)).toEqual(['pipeline.create', 'execution.read', 'audit.export']);
    for (const e of events) expect(validateFhir(e).filter((i) => i.severity === 'error')).toEqual([]);
    expect(events[1]).toMatchObject({ resourceType: 'AuditEvent', action: 'R', outcome: '0', subtype: [{ code: 'read' }, {}] });
    expect(events[1].entity[0].what.identifier.value).toBe(run.execution_id);
    expect(events[2].agent[0].network).toEqual({ address: '10.1.2.3', type: '2' });
  });

  // The entries' times are the database's clock. An app on another host whose clock is behind the database's once
  // ended the file at its own time, before the entries just written and before the export's own entry (so did an
  // export under a millisecond after its entry was written, its Date truncated to the millisecond). PGlite reads
  // the app's clock: only Postgres has a clock of its own.
  if (kind === 'postgres')
    it('ends the export at its own entry, whatever the app’s clock says', async () => {
      const org = `audit-clock-${kind}`;
      const c = await orgCaller(rt, org);
      await c.pipelines.create({ name: 'Clocked feed', definition });
      const principal = { kind: 'api-key' as const, orgId: org, scopes: ['admin'], keyId: '00000000-0000-4000-8000-000000000001', address: '10.1.2.3' };
      const codes = async () => {
        let ndjson = '';
        for await (const chunk of exportAuditNdjson(serviceContext(rt, principal), {})) ndjson += chunk;
        return ndjson
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l).subtype[1].code);
      };
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 60_000 });
      try {
        expect(await codes()).toEqual(['pipeline.create', 'audit.export']);
      } finally {
        vi.useRealTimers();
      }
      expect(await codes()).toEqual(['pipeline.create', 'audit.export', 'audit.export']);
    });

  it('is append-only: no update or delete, except its own pruning past the retention', async () => {
    const org = `audit-append-${kind}`;
    const c = await orgCaller(rt, org);
    await c.pipelines.create({ name: 'kept', definition });
    const old = new Date(Date.now() - 3000 * 86_400_000);
    await rt.db.insert(auditEvents).values({ orgId: org, at: old, actorType: 'system', action: 'pipeline.create' });
    expect(await refusal(rt.db.execute(sql`update audit_events set action = 'x' where org_id = ${org}`))).toMatch(/append-only/);
    expect(await refusal(rt.db.execute(sql`delete from audit_events where org_id = ${org}`))).toMatch(/append-only/);
    expect(await refusal(rt.db.execute(sql`truncate audit_events`))).toMatch(/append-only/);
    expect((await c.audit.list({ limit: 50, offset: 0 })).total_count).toBe(2);

    expect(await pruneAudit(rt.db, new Date(), 2190)).toBeGreaterThanOrEqual(1);
    const left = await c.audit.list({ limit: 50, offset: 0 });
    expect(left.events.map((e) => e.action)).toEqual(['pipeline.create']);
    // the pruner's permission ended with its transaction
    expect(await refusal(rt.db.execute(sql`delete from audit_events where org_id = ${org}`))).toMatch(/append-only/);
  });

  it('records key changes without the key, and refuses the log to non-admins', async () => {
    const org = `audit-keys-${kind}`;
    const c = await orgCaller(rt, org);
    const key = await c.keys.create({ name: 'lab feed', scopes: ['read', 'execute'] });
    await c.keys.revoke({ id: key.id });
    const list = await c.audit.list({ action: 'key', limit: 50, offset: 0 });
    expect(list.events.map((e) => [e.action, e.object.name])).toEqual([
      ['key.revoke', 'lab feed'],
      ['key.create', 'lab feed'],
    ]);
    expect(list.events[1]!.detail).toEqual({ scopes: 'read execute' });
    const stored = JSON.stringify(rowsOf(await rt.db.execute(sql`select * from audit_events where org_id = ${org}`)));
    expect(stored).not.toContain(key.key);
    const reader = await orgCaller(rt, org, ['read', 'write']);
    await expect(reader.audit.list({ limit: 10, offset: 0 })).rejects.toThrow(/admin/);
  });
});
