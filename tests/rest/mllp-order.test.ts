import fs from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/agents';
import { client, type Client } from '../support/client';
import { createTestDatabase } from '../support/postgres';
import { freePort, startServer, type RunningServer } from '../support/server';
import { startSink } from '../support/sink';
import { startWorker } from '../support/worker';

const ORG = { id: 'order-org', key: 'cfk_order_test_key_0123456789' };
const QUEUE = { QUEUE_HEARTBEAT_SECONDS: '10', QUEUE_SUPERVISE_SECONDS: '1', QUEUE_CRON_SECONDS: '1' };
/** How long each run waits for the outside system (the sink's /slow): runs side by side would overlap by that much. */
const SLOW_MS = 700;

const DIR = '/work/shared/data/hl7v2/messages';
/** The ADT samples, each with a control id of its own (MSH-10 = ORDERn), to tell their runs apart. */
const ADT = fs
  .readdirSync(DIR)
  .filter((f) => f.startsWith('ADT-'))
  .sort()
  .slice(0, 8)
  .map((f, i) => fs.readFileSync(`${DIR}/${f}`, 'utf8').replace(/^(MSH(?:\|[^|\r\n]*){8}\|)[^|\r\n]*/, `$1ORDER${i}`));

/*
 * in (mllp-listener-trigger, ack_mode stored) ──▶ parse (hl7v2-parse) ──▶ slow (http-request POST sink/slow) ──▶ out
 */
const definition = (port: number, sink: string) => ({
  nodes: [
    { id: 'in', type: 'mllp-listener-trigger', config: { port } },
    { id: 'parse', type: 'hl7v2-parse' },
    { id: 'slow', type: 'http-request', config: { url: `${sink}/slow` } },
    { id: 'out', type: 'pipeline-output' },
  ],
  connections: [
    { source: 'in', source_port: 'message', target: 'parse', target_port: 'text' },
    { source: 'parse', source_port: 'message', target: 'slow', target_port: 'body' },
    { source: 'slow', source_port: 'response', target: 'out', target_port: 'value' },
  ],
});

/** Sends the messages on one connection without waiting for ACKs; resolves their ACK codes (MSA-1) once all came. */
function sendWithoutWaiting(port: number, texts: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let data = '';
    const codes: string[] = [];
    const socket = net.connect({ host: '127.0.0.1', port }, () => socket.write(texts.map((t) => `\x0b${t.replace(/\r?\n/g, '\r')}\x1c\r`).join('')));
    socket.on('data', (d) => {
      data += d.toString();
      for (let end = data.indexOf('\x1c'); end >= 0; end = data.indexOf('\x1c')) {
        codes.push(/\rMSA\|([^|\r]*)/.exec(data.slice(0, end))?.[1] ?? '');
        data = data.slice(end + 2);
      }
      if (codes.length === texts.length) {
        socket.end();
        resolve(codes);
      }
    });
    socket.on('error', reject);
  });
}

// A feed on Postgres whose runs are worked by a separate worker process: the web process that receives a sender's
// messages holds each run until the one before ended, wherever that one runs; and when that process dies holding
// some, the process that takes its claims over keeps holding them in order.
describe("an MLLP sender's runs in the order received (Postgres, separate worker)", () => {
  let web: RunningServer;
  let api: Client;
  let sink: Awaited<ReturnType<typeof startSink>>;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let drop: () => Promise<void>;
  let dbUrl: string;
  beforeAll(async () => {
    const db = await createTestDatabase('mllp_order');
    drop = db.drop;
    dbUrl = db.url;
    sink = await startSink(SLOW_MS);
    web = await startServer({ DATABASE_URL: db.url, WORKER_IN_SERVER: 'false', BOOTSTRAP_ORG_ID: ORG.id, BOOTSTRAP_API_KEY: ORG.key, ...QUEUE });
    api = client(web.url, ORG);
    worker = await startWorker({ DATABASE_URL: db.url, ...QUEUE });
  }, 60_000);
  afterAll(async () => {
    worker?.process.kill('SIGTERM');
    await worker?.exited;
    await web?.stop();
    await sink?.close();
    await drop?.();
  });

  /** The control ids the sink saw, in the order their calls came, and the times they came. */
  const calls = () => sink.received.filter((r) => r.path === '/slow').map((r) => ({ id: /ORDER\d/.exec(JSON.stringify(r.body))?.[0], at: r.at }));

  it('runs them one after another in the order sent, across reconnects and a web process killed while it held them', async () => {
    const port = await freePort();
    const pipeline = (await api.post('/api/pipelines', { name: 'ordered feed', definition: definition(port, sink.url) })).body.id;
    expect((await api.post(`/api/pipelines/${pipeline}/deploy`)).status).toBe(200);
    const ids = ADT.map((_, i) => `ORDER${i}`);

    // four, then four more on a new connection once the first four were ACKed (stored: at once, long before they ran)
    expect(await sendWithoutWaiting(port, ADT.slice(0, 4))).toEqual(['AA', 'AA', 'AA', 'AA']);
    expect(await sendWithoutWaiting(port, ADT.slice(4))).toEqual(['AA', 'AA', 'AA', 'AA']);
    // the fifth is running in the worker; the web process holds the three after it: it dies
    await waitFor('the fifth run', async () => (calls().some((c) => c.id === 'ORDER4') ? true : undefined));
    expect(await web.stop('SIGKILL')).toBe(null);
    // the server is started again (as a service manager would): it opens the listener again and answers the API
    web = await startServer({ DATABASE_URL: dbUrl, WORKER_IN_SERVER: 'false', BOOTSTRAP_ORG_ID: ORG.id, BOOTSTRAP_API_KEY: ORG.key, ...QUEUE });
    api = client(web.url, ORG);

    // its heartbeat goes stale and another process takes its runs over: all eight end, completed
    const runs = await waitFor(
      'every run to end',
      async () => {
        const r = await api.get(`/api/executions?pipeline_id=${pipeline}&limit=100`);
        const list = r.body.executions as { status: string }[] | undefined;
        return list?.length === ADT.length && list.every((e) => e.status === 'completed') ? list : undefined;
      },
      90,
    );
    expect(runs).toHaveLength(ADT.length);
    const seen = calls();
    expect(seen.map((c) => c.id)).toEqual(ids);
    // each call came once the one before was answered: the runs never overlapped
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.at - seen[i - 1]!.at).toBeGreaterThanOrEqual(SLOW_MS - 5);
  }, 150_000);
});
