import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { Hl7Message } from '@medplum/core';
import { Hl7Client } from '@medplum/hl7';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { orgWithKey } from '../support/accounts';
import { client, expectError, type Client } from '../support/client';
import { freePort, startServer, tempDir } from '../support/server';

const DIR = '/work/shared/data/hl7v2/messages';
const ADT = fs
  .readdirSync(DIR)
  .filter((f) => f.startsWith('ADT-'))
  .sort()
  .map((f) => fs.readFileSync(path.join(DIR, f), 'utf8'));

/*
 * in (mllp-listener-trigger) ──message──▶ parse (hl7v2-parse) ──message──▶ out (pipeline-output "message")
 */
function listenerPipeline(trigger: Record<string, unknown>, middle?: { type: string; config: Record<string, unknown>; from: string }) {
  const nodes = [
    { id: 'in', type: 'mllp-listener-trigger', config: trigger },
    { id: 'parse', type: 'hl7v2-parse', config: {} },
    { id: 'out', type: 'pipeline-output', config: { key: 'message' } },
  ];
  const connections = [
    { id: 'c1', source: 'in', source_port: 'message', target: 'parse', target_port: 'text' },
    { id: 'c2', source: 'parse', source_port: 'message', target: 'out', target_port: 'value' },
  ];
  if (middle) {
    nodes.push({ id: 'check', type: middle.type, config: middle.config });
    connections.push({ id: 'c3', source: 'in', source_port: middle.from, target: 'check', target_port: 'input' });
  }
  return { nodes, connections };
}

const field = (m: Hl7Message, segment: string, n: number) => m.getSegment(segment)?.getField(n)?.toString() ?? '';

/** Sends each message on one MLLP connection, as an interface engine does, calling `after` on each ACK. */
async function sendAll(port: number, messages: string[], after: (ack: Hl7Message, sent: Hl7Message, i: number) => Promise<void>) {
  const c = new Hl7Client({ host: '127.0.0.1', port, connectTimeout: 5000 });
  try {
    for (const [i, text] of messages.entries()) {
      const sent = Hl7Message.parse(text);
      const ack = await c.sendAndWait(sent, { timeoutMs: 30_000 });
      await after(ack, sent, i);
    }
  } finally {
    await c.close();
  }
}

async function executionCount(api: Client, pipelineId: string): Promise<number> {
  return (await api.get(`/api/executions?pipeline_id=${pipelineId}&limit=1`)).body.total_count;
}

async function settled(api: Client, pipelineId: string, n: number) {
  for (let i = 0; i < 400; i++) {
    const r = await api.get(`/api/executions?pipeline_id=${pipelineId}&limit=100`);
    const done = r.body.executions.filter((e: { status: string }) => !['queued', 'running'].includes(e.status));
    if (done.length >= n) return r.body.executions as { id: string; status: string }[];
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`the executions of ${pipelineId} did not finish`);
}

/** Connects, sends one framed message and tells whether the listener closed the connection without a byte of answer. */
function closedWithoutAnswer(port: number, text: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const socket = net.connect({ host: '127.0.0.1', port }, () =>
      socket.write(Buffer.concat([Buffer.from([0x0b]), Buffer.from(text), Buffer.from([0x1c, 0x0d])])),
    );
    socket.on('data', () => (answered = true));
    socket.on('error', () => {}); // a reset is a close too
    socket.on('close', () => resolve(!answered));
    socket.setTimeout(20_000, () => reject(new Error('the connection stayed open')));
  });
}

/** Sends one framed text on a fresh connection and returns the framed answer's text. */
function exchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = Buffer.alloc(0);
    const socket = net.connect({ host: '127.0.0.1', port }, () =>
      socket.write(Buffer.concat([Buffer.from([0x0b]), Buffer.from(text), Buffer.from([0x1c, 0x0d])])),
    );
    socket.on('data', (d) => {
      answer = Buffer.concat([answer, d]);
      const end = answer.indexOf(0x1c);
      if (end >= 0) {
        socket.end();
        resolve(answer.subarray(1, end).toString());
      }
    });
    socket.on('error', reject);
  });
}

/** Sends every message at once on one connection, without waiting for ACKs (pipelining), and returns the ACKs as they came. */
function sendWithoutWaiting(port: number, texts: string[]): Promise<Hl7Message[]> {
  return new Promise((resolve, reject) => {
    let data = Buffer.alloc(0);
    const acks: Hl7Message[] = [];
    const frames = texts.map((t) => Buffer.concat([Buffer.from([0x0b]), Buffer.from(t.replace(/\r?\n/g, '\r')), Buffer.from([0x1c, 0x0d])]));
    const socket = net.connect({ host: '127.0.0.1', port }, () => socket.write(Buffer.concat(frames)));
    socket.on('data', (d) => {
      data = Buffer.concat([data, d]);
      for (let end = data.indexOf(0x1c); end >= 0; end = data.indexOf(0x1c)) {
        acks.push(Hl7Message.parse(data.subarray(data.indexOf(0x0b) + 1, end).toString()));
        data = data.subarray(end + 2);
      }
      if (acks.length === texts.length) {
        socket.end();
        resolve(acks);
      }
    });
    socket.on('error', reject);
    socket.setTimeout(30_000, () => reject(new Error(`${acks.length} of ${texts.length} ACKs came`)));
  });
}

/** Whether something accepts connections on the port. */
function reachable(port: number): Promise<boolean> {
  const c = new Hl7Client({ host: '127.0.0.1', port, connectTimeout: 2000 });
  return c.connect().then(
    async () => (await c.close(), true),
    () => false,
  );
}

describe.each(inject('targets'))('MLLP listener on $name', (target) => {
  let api: Client;
  let port: number;
  let pipeline: string;
  beforeAll(async () => {
    // an organization of its own: the REST files run side by side on the same two servers
    api = client(target.url, await orgWithKey(target.url, `mllp-${target.name}-${Date.now()}@example.org`));
    port = await freePort();
    pipeline = (await api.post('/api/pipelines', { name: `ADT feed ${target.name}`, definition: listenerPipeline({ port }) })).body.id;
    const deployed = await api.post(`/api/pipelines/${pipeline}/deploy`);
    expect(deployed.status).toBe(200);
  });

  it('answers each ADT message AA with MSA-2 = MSH-10, after its execution is stored', async () => {
    await sendAll(port, ADT, async (ack, sent, i) => {
      expect(field(ack, 'MSH', 9)).toMatch(/^ACK/);
      expect(field(ack, 'MSA', 1)).toBe('AA');
      expect(field(ack, 'MSA', 2)).toBe(field(sent, 'MSH', 10));
      expect(await executionCount(api, pipeline)).toBe(i + 1);
    });
    const runs = await settled(api, pipeline, ADT.length);
    expect(runs.map((r) => r.status)).toEqual(ADT.map(() => 'completed'));
    const newest = (await api.get(`/api/executions/${runs[0]!.id}`)).body;
    expect(newest).toMatchObject({
      trigger: 'mllp',
      inputs: { message: ADT.at(-1)!.replace(/\r?\n/g, '\r').replace(/\r+$/, ''), remote_address: expect.stringContaining('127.0.0.1') },
    });
    expect(newest.outputs.message).toMatchObject({ message_type: 'ADT', control_id: field(Hl7Message.parse(ADT.at(-1)!), 'MSH', 10) });
  });

  it('takes messages from Debian python3-hl7’s mllp_send', async () => {
    const before = await executionCount(api, pipeline);
    const dir = tempDir('mllp');
    const file = path.join(dir, 'feed.hl7');
    fs.writeFileSync(
      file,
      ADT.slice(0, 3)
        .map((m) => m.trimEnd() + '\n')
        .join(''),
    );
    // --loose: messages one after the other in the file, LF line ends; it prints each ACK as received (framed)
    const { stdout } = await promisify(execFile)('mllp_send', ['--loose', '--port', String(port), '--file', file, '127.0.0.1']);
    const acks = stdout
      .split('\x0b')
      .map((a) => a.replace(/\x1c\r?\n?$/, '').trim())
      .filter(Boolean)
      .map((a) => Hl7Message.parse(a));
    expect(acks).toHaveLength(3);
    for (const [i, ack] of acks.entries()) {
      expect(field(ack, 'MSA', 1)).toBe('AA');
      expect(field(ack, 'MSA', 2)).toBe(field(Hl7Message.parse(ADT[i]!), 'MSH', 10));
    }
    expect(await executionCount(api, pipeline)).toBe(before + 3);
  });

  it('takes messages sent without waiting for each ACK, storing every one and answering them in the order sent', async () => {
    const before = await executionCount(api, pipeline);
    const texts = ADT.slice(0, 12);
    const acks = await sendWithoutWaiting(port, texts);
    expect(acks.map((a) => field(a, 'MSA', 1))).toEqual(texts.map(() => 'AA'));
    expect(acks.map((a) => field(a, 'MSA', 2))).toEqual(texts.map((t) => field(Hl7Message.parse(t), 'MSH', 10)));
    expect(await executionCount(api, pipeline)).toBe(before + texts.length);
  });

  it('answers AR to what is not HL7 v2, and stores nothing', async () => {
    const before = await executionCount(api, pipeline);
    const ack = Hl7Message.parse(await exchange(port, 'patient_id,family\n123,Doe'));
    expect(field(ack, 'MSA', 1)).toBe('AR');
    expect(field(ack, 'MSA', 3)).toContain('HL7 v2');
    expect(await executionCount(api, pipeline)).toBe(before);
  });

  it('closes the port on undeploy and opens it again on redeploy', async () => {
    expect((await api.post(`/api/pipelines/${pipeline}/undeploy`)).status).toBe(200);
    expect(await reachable(port)).toBe(false);
    expect((await api.post(`/api/pipelines/${pipeline}/deploy`)).status).toBe(200);
    await sendAll(port, ADT.slice(0, 1), async (ack) => expect(field(ack, 'MSA', 1)).toBe('AA'));
  });

  it('refuses to deploy a second listener on a port in use, and one without a port, leaving them undeployed', async () => {
    const twin = (await api.post('/api/pipelines', { name: 'same port', definition: listenerPipeline({ port }) })).body.id;
    const r = await api.post(`/api/pipelines/${twin}/deploy`);
    expectError(r, 409, 'PORT_IN_USE');
    expect(r.body.error.message).toContain(String(port));
    expect((await api.get(`/api/pipelines/${twin}`)).body.status).toBe('active');
    const portless = (await api.post('/api/pipelines', { name: 'no port', definition: listenerPipeline({}) })).body.id;
    const p = await api.post(`/api/pipelines/${portless}/deploy`);
    expect(p.status).toBe(400);
    expect(p.body.error.message).toContain('port');
    expect((await api.get(`/api/pipelines/${portless}`)).body.status).toBe('active');
    // the first listener still answers
    await sendAll(port, ADT.slice(0, 1), async (ack) => expect(field(ack, 'MSA', 1)).toBe('AA'));
  });

  it('with ack_mode completed, answers AE with the error when the run fails', async () => {
    const p2 = await freePort();
    // a check beside the parse that fails the run on transfers (A02)
    const definition = listenerPipeline(
      { port: p2, ack_mode: 'completed' },
      { type: 'jsonata-transform', config: { expression: '$contains(message, "ADT^A02") ? $error("transfers are not accepted here") : "ok"' }, from: 'event' },
    );
    const id = (await api.post('/api/pipelines', { name: 'strict feed', definition })).body.id;
    expect((await api.post(`/api/pipelines/${id}/deploy`)).status).toBe(200);
    const a01 = ADT.find((m) => m.includes('ADT^A01'))!;
    const a02 = ADT.find((m) => m.includes('ADT^A02'))!;
    const codes: string[] = [];
    const texts: string[] = [];
    await sendAll(p2, [a01, a02], async (ack) => {
      codes.push(field(ack, 'MSA', 1));
      texts.push(field(ack, 'MSA', 3));
    });
    expect(codes).toEqual(['AA', 'AE']);
    expect(texts[1]).toContain('transfers are not accepted here');
    const runs = await settled(api, id, 2);
    expect(runs.map((r) => r.status).sort()).toEqual(['completed', 'failed']);
    await api.post(`/api/pipelines/${id}/undeploy`);
  });

  it("with ack_mode completed, runs a connection's messages one after another, even sent without waiting for ACKs", async () => {
    const p4 = await freePort();
    const id = (await api.post('/api/pipelines', { name: 'ordered feed', definition: listenerPipeline({ port: p4, ack_mode: 'completed' }) })).body.id;
    expect((await api.post(`/api/pipelines/${id}/deploy`)).status).toBe(200);
    const texts = ADT.slice(0, 6);
    const acks = await sendWithoutWaiting(p4, texts);
    expect(acks.map((a) => field(a, 'MSA', 1))).toEqual(texts.map(() => 'AA'));
    expect(acks.map((a) => field(a, 'MSA', 2))).toEqual(texts.map((t) => t.split(/\r?\n|\r/)[0]!.split('|')[9]));
    await settled(api, id, texts.length);
    const runs = (await api.get(`/api/executions?pipeline_id=${id}&limit=100`)).body.executions as { started_at: string; finished_at: string }[];
    const inOrder = runs.map((r) => [Date.parse(r.started_at), Date.parse(r.finished_at)]).sort((a, b) => a[0]! - b[0]!);
    // each run started once the one before had finished
    for (let i = 1; i < inOrder.length; i++) expect(inOrder[i]![0]).toBeGreaterThanOrEqual(inOrder[i - 1]![1]!);
    await api.post(`/api/pipelines/${id}/undeploy`);
  });

  it("with ack_mode stored, starts each run of a sender's messages once the one before ended, in the order received", async () => {
    const p5 = await freePort();
    const id = (await api.post('/api/pipelines', { name: 'ordered stored feed', definition: listenerPipeline({ port: p5 }) })).body.id;
    expect((await api.post(`/api/pipelines/${id}/deploy`)).status).toBe(200);
    // the samples, each with a control id of its own (MSH-10), to tell their runs apart
    const texts = ADT.slice(0, 8).map((t, i) => t.replace(/^(MSH(?:\|[^|\r\n]*){8}\|)[^|\r\n]*/, `$1ORDER${i}`));
    const controlId = (t: string) => t.split(/\r?\n|\r/)[0]!.split('|')[9]!;
    expect(new Set(texts.map(controlId)).size).toBe(texts.length);
    // sent without waiting for ACKs, on one connection and then on the next (the ACKs come as each is stored)
    const acks = [...(await sendWithoutWaiting(p5, texts.slice(0, 4))), ...(await sendWithoutWaiting(p5, texts.slice(4)))];
    expect(acks.map((a) => field(a, 'MSA', 1))).toEqual(texts.map(() => 'AA'));
    await settled(api, id, texts.length);
    type Run = { id: string; started_at: string; finished_at: string; starts_after: string | null };
    const runs = (await api.get(`/api/executions?pipeline_id=${id}&limit=100`)).body.executions as Run[];
    runs.sort((a, b) => Date.parse(a.started_at) - Date.parse(b.started_at));
    // each names the one it started after: the run of the message before, across the reconnect
    expect(runs.map((r) => r.starts_after)).toEqual([null, ...runs.slice(0, -1).map((r) => r.id)]);
    // each run started once the one before had finished, and they ran in the order the messages came
    for (let i = 1; i < runs.length; i++) expect(Date.parse(runs[i]!.started_at)).toBeGreaterThanOrEqual(Date.parse(runs[i - 1]!.finished_at));
    const ran = [];
    for (const r of runs) {
      const detail = JSON.stringify((await api.get(`/api/executions/${r.id}`)).body);
      ran.push(texts.map(controlId).find((c) => detail.includes(`|${c}|`)));
    }
    expect(ran).toEqual(texts.map(controlId));
    await api.post(`/api/pipelines/${id}/undeploy`);
  });

  it("with order by patient, starts each run after the sender's run before it about the same patient, across connections", async () => {
    const port = await freePort();
    const id = (await api.post('/api/pipelines', { name: 'per-patient feed', definition: listenerPipeline({ port, order: 'patient' }) })).body.id;
    expect((await api.post(`/api/pipelines/${id}/deploy`)).status).toBe(200);
    // two patients' messages interleaved (PID-3 rewritten), each with a control id of its own (MSH-10)
    const patients = ['PAT-A', 'PAT-B', 'PAT-A', 'PAT-B', 'PAT-A', 'PAT-B'];
    const texts = patients.map((patient, i) =>
      ADT[i]!.replace(/^(MSH(?:\|[^|\r\n]*){8}\|)[^|\r\n]*/, `$1PATIENT${i}`).replace(
        /(^|\r\n?|\n)(PID\|[^|\r\n]*\|[^|\r\n]*\|)[^|\r\n]*/,
        `$1$2${patient}^^^GHH^MR`,
      ),
    );
    const controlId = (t: string) => t.split(/\r?\n|\r/)[0]!.split('|')[9]!;
    const acks = [...(await sendWithoutWaiting(port, texts.slice(0, 3))), ...(await sendWithoutWaiting(port, texts.slice(3)))];
    expect(acks.map((a) => field(a, 'MSA', 1))).toEqual(texts.map(() => 'AA'));
    await settled(api, id, texts.length);
    type Run = { id: string; started_at: string; finished_at: string; starts_after: string | null };
    const runs = (await api.get(`/api/executions?pipeline_id=${id}&limit=100`)).body.executions as Run[];
    const byMessage = new Map<string, Run>();
    for (const r of runs) {
      const detail = JSON.stringify((await api.get(`/api/executions/${r.id}`)).body);
      byMessage.set(
        texts.map(controlId).find((c) => detail.includes(`|${c}|`))!,
        r,
      );
    }
    const run = (i: number) => byMessage.get(controlId(texts[i]!))!;
    // each patient's first run follows nothing; each next one, that patient's run before it (the second connection too)
    expect(texts.map((_, i) => run(i).starts_after)).toEqual([null, null, run(0).id, run(1).id, run(2).id, run(3).id]);
    for (const [before, after] of [
      [0, 2],
      [2, 4],
      [1, 3],
      [3, 5],
    ] as const) {
      expect(Date.parse(run(after).started_at)).toBeGreaterThanOrEqual(Date.parse(run(before).finished_at));
    }
    await api.post(`/api/pipelines/${id}/undeploy`);
  });

  it('closes connections from senders outside allowed_senders', async () => {
    const p3 = await freePort();
    const id = (await api.post('/api/pipelines', { name: 'fenced', definition: listenerPipeline({ port: p3, allowed_senders: ['10.0.0.0/8'] }) })).body.id;
    expect((await api.post(`/api/pipelines/${id}/deploy`)).status).toBe(200);
    expect(await closedWithoutAnswer(p3, ADT[0]!)).toBe(true);
    expect(await executionCount(api, id)).toBe(0);
    await api.post(`/api/pipelines/${id}/undeploy`);
  });
});

describe('MLLP listener across a restart', () => {
  it('listens again once the server restarts, on the same port', async () => {
    const env = { DATA_DIR: tempDir('mllp-restart'), BOOTSTRAP_ORG_ID: 'org-mllp', BOOTSTRAP_API_KEY: 'cfk_test_mllp_restart_key_0123456789' };
    const org = { id: env.BOOTSTRAP_ORG_ID, key: env.BOOTSTRAP_API_KEY };
    const port = await freePort();
    const first = await startServer(env);
    let id: string;
    try {
      const api = client(first.url, org);
      id = (await api.post('/api/pipelines', { name: 'feed', definition: listenerPipeline({ port }) })).body.id;
      expect((await api.post(`/api/pipelines/${id}/deploy`)).status).toBe(200);
      await sendAll(port, ADT.slice(0, 1), async (ack) => expect(field(ack, 'MSA', 1)).toBe('AA'));
    } finally {
      await first.stop();
    }
    expect(await reachable(port)).toBe(false);
    const second = await startServer(env);
    try {
      await sendAll(port, ADT.slice(1, 2), async (ack) => expect(field(ack, 'MSA', 1)).toBe('AA'));
      expect(await executionCount(client(second.url, org), id)).toBe(2);
    } finally {
      await second.stop();
    }
    // two starts of a fresh embedded server, each allowed startServer's 120 s: one took past the default 60 s for
    // the whole test on a machine loaded with other work
  }, 180_000);
});
