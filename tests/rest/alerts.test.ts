import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { orgWithKey, trpc } from '../support/accounts';
import { client, expectError, type Client } from '../support/client';
import { startSmtp, type LocalSmtp } from '../support/smtp';

/*
 * Alerts when production runs fail (issue 30 §1), against a real SMTP server on loopback.
 *
 *   feed:    start (manual-trigger, patient: json) ──▶ write (jsonata: $error "FHIR server down") ──▶ out
 *   alerts:  on_error (error-trigger) ──event──▶ email (send-email through the smtp connector)
 *   broken:  on_error (error-trigger) ──event──▶ fail (jsonata: $error) — an error pipeline that fails itself
 */
const failing = {
  nodes: [
    { id: 'start', type: 'manual-trigger', config: { fields: { patient: 'json' } } },
    { id: 'write', type: 'jsonata-transform', config: { expression: '$error("FHIR server down")' } },
    { id: 'out', type: 'pipeline-output', config: { key: 'result' } },
  ],
  connections: [
    { id: 'c1', source: 'start', source_port: 'patient', target: 'write', target_port: 'input' },
    { id: 'c2', source: 'write', source_port: 'output', target: 'out', target_port: 'value' },
  ],
};
const mailer = {
  nodes: [
    { id: 'on_error', type: 'error-trigger', config: {} },
    {
      id: 'email',
      type: 'send-email',
      config: {
        connector: 'Alert mail',
        to: 'oncall@hospital.test',
        subject: '[Clinflow] {{ pipeline.name }} failed: {{ error.code }}',
        body: '{{ error.message }}\nNode: {{ node.id }} ({{ node.type }}), attempt {{ attempt }}\nRun: {{ execution.url }}\nHeld back: {{ held_back }}',
      },
    },
  ],
  connections: [{ id: 'c1', source: 'on_error', source_port: 'event', target: 'email', target_port: 'data' }],
};
const broken = {
  nodes: [
    { id: 'on_error', type: 'error-trigger', config: {} },
    { id: 'fail', type: 'jsonata-transform', config: { expression: '$error("the alert itself failed")' } },
  ],
  connections: [{ id: 'c1', source: 'on_error', source_port: 'event', target: 'fail', target_port: 'input' }],
};

/** Long enough that a second failure is always inside it; shortened to SHORT_WINDOW to see the next alert go out. */
const WINDOW_SECONDS = 3600;
const SHORT_WINDOW = 1;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(inject('targets'))('alerts on $name', (target) => {
  let api: Client;
  let cookie: string;
  let smtp: LocalSmtp;
  const ids = { alerts: '', feed: '', broken: '', other: '' };

  const create = async (name: string, definition: unknown) => {
    const r = await api.post('/api/pipelines', { name, definition });
    expect(r.status, r.text).toBe(201);
    expect((await api.post(`/api/pipelines/${r.body.id}/deploy`)).status).toBe(200);
    return r.body.id as string;
  };
  const fail = async (pipelineId: string, test_mode = false) => {
    const r = await api.post('/api/execute', { pipeline_id: pipelineId, inputs: { patient: { resourceType: 'Patient' } }, async: false, test_mode });
    expect(r.status, r.text).toBe(200);
    expect(r.body.status).toBe('failed');
    return r.body.execution_id as string;
  };
  const runsOf = async (pipelineId: string) => (await api.get(`/api/executions?pipeline_id=${pipelineId}&limit=100`)).body.executions as any[];
  const until = async <T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> => {
    for (let i = 0; i < 200; i++) {
      const v = await read();
      if (ok(v)) return v;
      await sleep(100);
    }
    throw new Error(`timed out waiting for ${what}`);
  };

  beforeAll(async () => {
    smtp = await startSmtp({ user: 'alerts', pass: 'smtp-pass-7f3a' });
    const org = await orgWithKey(target.url, `alerts-${target.name}-${Date.now()}@example.org`);
    api = client(target.url, org);
    cookie = org.cookie;
    const c = await api.post('/api/connectors', {
      name: 'Alert mail',
      type: 'smtp',
      endpoint: `127.0.0.1:${smtp.port}`,
      config: { security: 'none', from: 'Clinflow <alerts@hospital.test>' },
      credentials: { username: 'alerts', password: 'smtp-pass-7f3a' },
    });
    expect(c.status, c.text).toBe(201);
    ids.alerts = await create('On-call mail', mailer);
    ids.feed = await create('ADT feed', failing);
    ids.broken = await create('Broken alerts', broken);
    ids.other = await create('Lab feed', failing);
  });
  afterAll(() => smtp?.close());

  it('tests the smtp connector: connects and signs in without sending a mail', async () => {
    const list = await api.get('/api/connectors');
    const id = list.body.connectors.find((c: any) => c.name === 'Alert mail').id;
    const r = await api.post(`/api/connectors/${id}/test`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.ok, r.text).toBe(true);
    expect(r.text).toContain('signed in as alerts');
    expect(r.text).not.toContain('smtp-pass-7f3a');
    expect(smtp.mails).toHaveLength(0);
  });

  it('names an error pipeline in the pipeline settings (PUT/GET /api/pipelines/{id}/alerts)', async () => {
    const r = await api.put(`/api/pipelines/${ids.feed}/alerts`, { error_pipeline_id: ids.alerts, window_seconds: WINDOW_SECONDS });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ error_pipeline_id: ids.alerts, error_pipeline_name: 'On-call mail', window_seconds: WINDOW_SECONDS, windows: [] });
    const mine = await api.get(`/api/pipelines/${ids.alerts}/alerts`);
    expect(mine.body.error_pipeline_of).toEqual([{ id: ids.feed, name: 'ADT feed' }]);
  });

  it('refuses an error pipeline that is the pipeline itself or does not start with an error trigger', async () => {
    expectError(await api.put(`/api/pipelines/${ids.alerts}/alerts`, { error_pipeline_id: ids.alerts }), 400, 'VALIDATION_FAILED');
    expectError(await api.put(`/api/pipelines/${ids.other}/alerts`, { error_pipeline_id: ids.feed }), 400, 'VALIDATION_FAILED');
    expect((await api.get(`/api/pipelines/${ids.other}/alerts`)).body.error_pipeline_id).toBeNull();
  });

  it('sends one mail with the error details when a production run fails, none for a second failure in the window', async () => {
    const first = await fail(ids.feed);
    await smtp.waitFor(1);
    const mail = smtp.mails[0]!;
    expect(mail.text).toContain('FHIR server down');
    expect(mail.text).toContain('Node: write (jsonata-transform), attempt 1');
    expect(mail.text).toContain(`/executions/${first}`);
    expect(mail.text).toContain('Held back: 0');
    expect(mail.envelopeTo).toEqual(['oncall@hospital.test']);
    expect(mail.user).toBe('alerts');
    const detail = (await api.get(`/api/executions/${first}`)).body;
    expect(mail.subject).toBe(`[Clinflow] ADT feed failed: ${detail.error.code}`);

    await fail(ids.feed, true); // a test run: never alerts, never counts
    await fail(ids.feed);
    const held = await until(
      'the second failure to be held back',
      async () => (await api.get(`/api/pipelines/${ids.feed}/alerts`)).body.windows,
      (w: any[]) => w[0]?.held_back === 1,
    );
    expect(held).toEqual([expect.objectContaining({ error_code: detail.error.code, held_back: 1 })]);
    expect(smtp.mails).toHaveLength(1);
    const alertRuns = await runsOf(ids.alerts);
    expect(alertRuns).toHaveLength(1);
    expect(alertRuns[0]).toMatchObject({ status: 'completed', trigger: 'error' });
  });

  it('sends the next failure after the window, with the count held back', async () => {
    expect((await api.put(`/api/pipelines/${ids.feed}/alerts`, { error_pipeline_id: ids.alerts, window_seconds: SHORT_WINDOW })).status).toBe(200);
    await sleep(SHORT_WINDOW * 1000 + 100);
    const third = await fail(ids.feed);
    await smtp.waitFor(2);
    expect(smtp.mails[1]!.text).toContain('Held back: 1');
    expect(smtp.mails[1]!.text).toContain(`/executions/${third}`);
    expect((await api.get(`/api/pipelines/${ids.feed}/alerts`)).body.windows[0].held_back).toBe(0);
  });

  it('never starts an error pipeline for its own failure', async () => {
    // Lab feed → Broken alerts (which fails) → its own error pipeline would be On-call mail: it must not start
    expect((await api.put(`/api/pipelines/${ids.other}/alerts`, { error_pipeline_id: ids.broken, window_seconds: 60 })).status).toBe(200);
    expect((await api.put(`/api/pipelines/${ids.broken}/alerts`, { error_pipeline_id: ids.alerts, window_seconds: 60 })).status).toBe(200);
    await fail(ids.other);
    const runs = await until(
      'the broken error pipeline to fail',
      () => runsOf(ids.broken),
      (r) => r[0]?.status === 'failed',
    );
    expect(runs).toHaveLength(1);
    expect(runs[0].trigger).toBe('error');
    // a later alert goes out: by then the broken pipeline's failure was long handled, and sent nothing
    await sleep(SHORT_WINDOW * 1000 + 100);
    await fail(ids.feed);
    await smtp.waitFor(3);
    expect(smtp.mails.map((m) => m.subject)).toEqual([
      expect.stringContaining('ADT feed'),
      expect.stringContaining('ADT feed'),
      expect.stringContaining('ADT feed'),
    ]);
    expect(await runsOf(ids.broken)).toHaveLength(1);
    expect(await runsOf(ids.alerts)).toHaveLength(3);
  });

  it('marks the failing pipelines on the dashboard, with the alerts held back', async () => {
    expect((await api.put(`/api/pipelines/${ids.feed}/alerts`, { error_pipeline_id: ids.alerts, window_seconds: WINDOW_SECONDS })).status).toBe(200);
    await fail(ids.feed); // inside the window: held back
    await until(
      'the held-back failure',
      async () => (await api.get(`/api/pipelines/${ids.feed}/alerts`)).body.windows[0].held_back,
      (n) => n === 1,
    );
    const input = encodeURIComponent(JSON.stringify({ days: 7, time_zone: 'UTC' }));
    const board = await trpc<{ failing_now: any[] }>(target.url, cookie, `executions.dashboard?input=${input}`);
    const feed = board.failing_now.find((p: any) => p.pipeline_id === ids.feed);
    expect(feed).toMatchObject({ name: 'ADT feed', held_back: 1 });
    expect(feed.failed_last_hour).toBeGreaterThanOrEqual(5);
    expect(board.failing_now.find((p: any) => p.pipeline_id === ids.alerts)).toBeUndefined();
  });

  it('keeps another organization out of the alert settings', async () => {
    const other = client(target.url, await orgWithKey(target.url, `alerts-other-${target.name}-${Date.now()}@example.org`));
    expectError(await other.get(`/api/pipelines/${ids.feed}/alerts`), 404, 'PIPELINE_NOT_FOUND');
    expectError(await other.put(`/api/pipelines/${ids.feed}/alerts`, { error_pipeline_id: null }), 404, 'PIPELINE_NOT_FOUND');
    const own = await other.post('/api/pipelines', { name: 'Mine', definition: failing });
    expectError(await other.put(`/api/pipelines/${own.body.id}/alerts`, { error_pipeline_id: ids.alerts }), 400, 'VALIDATION_FAILED');
  });
});
