import fs from 'node:fs';
import path from 'node:path';
import { Hl7Message } from '@medplum/core';
import { Hl7Client } from '@medplum/hl7';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { orgWithKey } from '../support/accounts';
import { client, type Client, pollExecution } from '../support/client';
import { freePort } from '../support/server';

/*
 * A run's input of over 1 KB is stored deflated (issue 27: bytes per feed message; services/executions/stored-inputs.ts):
 * every reader gets it back as it was given — the detail, a retry, a search, a worker's first read, a step session —
 * and what the policy drops at a run's end, or the pruner later, is dropped from where it is stored.
 *
 * feed: in (mllp-listener-trigger) ──message──▶ parse (hl7v2-parse) ──▶ check (jsonata) ──▶ out ("message")
 * echo: in (manual-trigger, field message: text) ──message──▶ out ("message")
 */
const DIR = '/work/shared/data/hl7v2/messages';
const ADT_FILES = fs.readdirSync(DIR).filter((f) => f.startsWith('ADT-'));
const read = (f: string) => fs.readFileSync(path.join(DIR, f), 'utf8');
/** The largest ADT sample: several KB, as a feed's messages are. */
const ADT = ADT_FILES.map(read).sort((a, b) => b.length - a.length)[0]!;
const SENT = Hl7Message.parse(ADT);
const CONTROL_ID = SENT.getSegment('MSH')!.getField(10)!.toString();

const echo = {
  nodes: [
    { id: 'in', type: 'manual-trigger', config: { fields: { message: 'text' } } },
    { id: 'out', type: 'pipeline-output', config: { key: 'message' } },
  ],
  connections: [{ id: 'c1', source: 'in', source_port: 'message', target: 'out', target_port: 'value' }],
};

describe.each(inject('targets'))('a large input stored deflated, on $name', (target) => {
  let api: Client;
  let sql: postgres.Sql | undefined;
  /** On Postgres: how the run's input is stored. */
  const storedInput = async (id: string) => {
    const [r] = await sql!`select inputs::text as inputs, length(inputs_z) as deflated from executions where id = ${id}`;
    return { inputs: r!.inputs as string, deflated: r!.deflated === null ? null : Number(r!.deflated) };
  };

  beforeAll(async () => {
    const org = await orgWithKey(target.url, `stored-inputs-${target.name}-${Date.now()}@example.org`);
    api = client(target.url, org);
    if (target.name === 'postgres') sql = postgres(inject('postgresUrl'), { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await sql?.end();
  });

  it('MLLP under errors: a failed message is shown whole, found by search and retried byte for byte; a successful one keeps nothing', async () => {
    const port = await freePort();
    const feed = (expression: string) => ({
      nodes: [
        { id: 'in', type: 'mllp-listener-trigger', config: { port, ack_mode: 'completed' } },
        { id: 'parse', type: 'hl7v2-parse', config: {} },
        { id: 'check', type: 'jsonata-transform', config: { expression } },
        { id: 'out', type: 'pipeline-output', config: { key: 'message' } },
      ],
      connections: [
        { id: 'c1', source: 'in', source_port: 'message', target: 'parse', target_port: 'text' },
        { id: 'c2', source: 'parse', source_port: 'message', target: 'check', target_port: 'input' },
        { id: 'c3', source: 'check', source_port: 'output', target: 'out', target_port: 'value' },
      ],
    });
    const created = await api.post('/api/pipelines', { name: 'feed', definition: feed('$error("not today")'), data_settings: { policy: 'errors' } });
    const id = created.body.id as string;
    expect((await api.post(`/api/pipelines/${id}/deploy`)).status).toBe(200);
    const send = async () => {
      const c = new Hl7Client({ host: '127.0.0.1', port, connectTimeout: 5000 });
      try {
        return (await c.sendAndWait(SENT, { timeoutMs: 30_000 })).getSegment('MSA')?.getField(1)?.toString();
      } finally {
        await c.close();
      }
    };
    expect(await send()).toBe('AE');
    const [listed] = (await api.get(`/api/executions?pipeline_id=${id}&status=failed`)).body.executions;
    const failed = await pollExecution(api, listed.id);
    expect(failed).toMatchObject({ payloads: 'kept', inputs: { message: SENT.toString() } });
    expect(failed.input_bytes).toBeGreaterThan(ADT.length);
    if (sql) {
      const stored = await storedInput(failed.id);
      expect(stored.inputs).toBe('{}');
      expect(stored.deflated).toBeLessThan(ADT.length * 0.75);
    }
    // found by what is inside the message, though the database cannot read it
    const found = (await api.get(`/api/executions?pipeline_id=${id}&q=${encodeURIComponent(CONTROL_ID)}`)).body;
    expect(found).toMatchObject({ total_count: 1, executions: [{ id: failed.id }] });
    expect((await api.get(`/api/executions?pipeline_id=${id}&q=not-in-the-message-${Date.now()}`)).body.total_count).toBe(0);

    // a retry from the trigger runs the message received, byte for byte (and, failing again, keeps it)
    const retry = await api.post('/api/execute/retry', { execution_id: failed.id, node_id: 'in' });
    expect(retry.status, retry.text).toBe(200);
    const again = await pollExecution(api, retry.body.execution_id);
    expect(again).toMatchObject({ status: 'failed', retry_of: failed.id, payloads: 'kept' });
    expect(again.inputs.message).toBe(failed.inputs.message);
    expect(again.nodes.find((n: any) => n.node_id === 'in').outputs.message).toBe(failed.inputs.message);

    // a message whose run succeeds keeps nothing: neither column holds it once the run ended
    await api.post(`/api/pipelines/${id}/undeploy`);
    await api.put(`/api/pipelines/${id}`, { definition: feed('control_id') });
    expect((await api.post(`/api/pipelines/${id}/deploy`)).status).toBe(200);
    expect(await send()).toBe('AA');
    const [done] = (await api.get(`/api/executions?pipeline_id=${id}&status=completed`)).body.executions;
    expect(await pollExecution(api, done.id)).toMatchObject({ payloads: 'not_kept', inputs: null, input_bytes: failed.input_bytes });
    if (sql) expect(await storedInput(done.id)).toEqual({ inputs: '{}', deflated: null });
    await api.post(`/api/pipelines/${id}/undeploy`);
  });

  it('a queued run and a step session read the input back; the pruner drops it', async () => {
    const created = await api.post('/api/pipelines', { name: 'echo', definition: echo });
    const id = created.body.id as string;
    expect((await api.post(`/api/pipelines/${id}/deploy`)).status).toBe(200);
    // run by the queue's worker: its first read of the row
    const queued = await api.post('/api/execute', { pipeline_id: id, inputs: { message: ADT }, async: true });
    expect(queued.status, queued.text).toBe(200);
    const run = await pollExecution(api, queued.body.execution_id);
    expect(run).toMatchObject({ status: 'completed', payloads: 'kept', inputs: { message: ADT }, outputs: { message: ADT } });
    if (sql) expect((await storedInput(run.id)).deflated).toBeGreaterThan(0);

    let state = (await api.post('/api/execute/step', { pipeline_id: id, inputs: { message: ADT }, test_mode: true })).body;
    while (state.status === 'waiting') state = (await api.post(`/api/execute/step/${state.session_id}`, {})).body;
    expect(state.status).toBe('completed');
    expect((await api.get(`/api/executions/${state.execution_id}`)).body).toMatchObject({ inputs: { message: ADT }, outputs: { message: ADT } });

    if (!sql) return; // ageing a run takes SQL: on Postgres
    await sql`update pipelines set data_settings = '{"payload_days": 7}' where id = ${id}`;
    await sql`update executions set created_at = now() - interval '10 days' where id = ${run.id}`;
    const pruned = await api.post('/api/storage/prune');
    expect(pruned.status, pruned.text).toBe(200);
    expect(pruned.body.bytes_freed).toBeGreaterThan(0);
    expect((await api.get(`/api/executions/${run.id}`)).body).toMatchObject({ payloads: 'pruned', inputs: null });
    expect(await storedInput(run.id)).toEqual({ inputs: '{}', deflated: null });
  });
});
