// Issue 8's feed as a benchmark: ADT messages over MLLP → hl7v2-parse → hl7v2-to-fhir → fhir-validate →
// fhir-deidentify → fhir-write (transaction) into a FHIR server, end to end on this machine — on PGlite, and on
// Postgres with 1 and 2 server processes (each also a queue worker; in a cluster they share the MLLP port) —
// against @medplum/hl7's plain MLLP echo (an ACK per message, nothing else) with the same client load in the same run.
// Reports messages/s acknowledged (each ACK comes once the message is stored as an execution), ACK latency
// p50/p99, and messages/s processed through to the FHIR server. Needs the .next-bench build of `npm run bench`
// (BENCH_SKIP_BUILD=1 reuses it). Run it with `npx node bench/bundled.mjs mllp-feed`. BENCH_MESSAGES, BENCH_CONNECTIONS;
// BENCH_POLICY=full|errors|metadata (or several, comma-separated: each in turn) sets the pipeline's data policy, and on
// Postgres the database bytes written per message are reported (executions and their node records, and the whole database).
// BENCH_POSTGRES_ONLY=1 skips PGlite; BENCH_PROCESSES=1 runs Postgres with one process only. BENCH_FEED=path runs only the
// trigger and hl7v2-parse: what the feed's own path costs (receive, store, queue, run, end, ACK) without the clinical nodes.
// BENCH_ACK_MODE=completed: the listener's ACK waits for each run. BENCH_WORKERS=n: on Postgres, the web process (one)
// works no queue and n worker processes run the feed (the split deployment of the README); their CPU is the server's.
// BENCH_ORDER=patient: the listener keeps each patient's order instead of each connection's. The 28 samples name six
// patients, 19 of them one: BENCH_PATIENTS=n gives message i the patient identifier (PID-3.1) BENCHPAT<i mod n>, as a
// hospital's feed about many patients would have.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Hl7Message } from '@medplum/core';
import { Hl7Client, Hl7Server } from '@medplum/hl7';
import { startFhirServer } from '../tests/support/fhir-server';

// bench/lib.mjs is loaded from the checkout at run time (bundled, it would look for the app beside the bundle)
const root = path.resolve(process.env.BENCH_ROOT ?? process.cwd());
const lib = (await import(path.join(root, 'bench/lib.mjs'))) as typeof import('./lib.mjs');
const { api, barChart, build, bytesPerRun, cpuMs, dbBytes, ownCpuMs, POLICIES, postgresCpu, postgresCpuSince, startServer, startWorker, withDatabase } = lib;
/** BENCH_WORKERS=n: Postgres with a web process that works no queue and n separate workers. */
const WORKERS = Number(process.env.BENCH_WORKERS ?? 0);

const N = Number(process.env.BENCH_MESSAGES ?? 400);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
/** BENCH_ACK_MODE=completed: the listener answers once each run ended (runs of a connection keep their order); default stored. */
const ACK_MODE = process.env.BENCH_ACK_MODE ?? 'stored';
/** BENCH_ORDER=patient: runs keep each patient's order (PID-3); default each connection's. */
const ORDER = process.env.BENCH_ORDER ?? 'connection';
/** BENCH_PATIENTS=n: message i is about patient BENCHPAT<i mod n> (PID-3.1 rewritten); unset, the samples' own. */
const PATIENTS = Number(process.env.BENCH_PATIENTS ?? 0);
const aboutPatient = (text: string, i: number) => (PATIENTS ? text.replace(/(^|\r)(PID\|[^|\r]*\|[^|\r]*\|)[^|^~\r]*/, `$1$2BENCHPAT${i % PATIENTS}`) : text);
/** BENCH_FEED=path: the pipeline is the MLLP trigger and hl7v2-parse only, so the CPU per message is the path's (issue 27 §4). */
const PATH_ONLY = process.env.BENCH_FEED === 'path';
/** Messages sent first and not measured (each sample twice). */
const WARM_UP = 56;
/** The server's HTTP port; the listener takes the next one. */
const PORT = Number(process.env.BENCH_PORT ?? 3431);
const DIR = path.join(root, '../shared/data/hl7v2/messages');
const ADT = fs
  .readdirSync(DIR)
  .filter((f) => f.startsWith('ADT'))
  .sort()
  .map((f) => fs.readFileSync(path.join(DIR, f), 'utf8').replace(/\r?\n/g, '\r').trim());

/** Sends `n` messages over `connections` MLLP connections at once; each connection waits for an ACK before its next. */
async function drive(port: number, n = N, label = 'BENCH'): Promise<{ perSecond: number; p50: number; p99: number; acks: Record<string, number>; ms: number }> {
  const latencies: number[] = [];
  const acks: Record<string, number> = {};
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      const client = new Hl7Client({ host: '127.0.0.1', port, connectTimeout: 10_000 });
      try {
        while (next < n) {
          const i = next++;
          const text = aboutPatient(ADT[i % ADT.length]!, i).replace(/^(MSH(?:\|[^|]*){8}\|)[^|]*/, `$1${label}${i}`); // a control id of its own
          const t = performance.now();
          const ack = await client.sendAndWait(Hl7Message.parse(text), { timeoutMs: 60_000 });
          latencies.push(performance.now() - t);
          const code = ack.getSegment('MSA')?.getField(1)?.toString() ?? '?';
          acks[code] = (acks[code] ?? 0) + 1;
        }
      } finally {
        await client.close();
      }
    }),
  );
  const ms = performance.now() - started;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return { perSecond: (n * 1000) / ms, p50: at(0.5), p99: at(0.99), acks, ms };
}

build();
// baseline: the plain echo of @medplum/hl7, an ACK per message and nothing else
const echo = new Hl7Server((connection) => connection.addEventListener('message', ({ message }) => connection.send(message.buildAck())));
await echo.start(0);
const echoPort = (echo.server!.address() as { port: number }).port;
const baseline = await drive(echoPort);
await echo.stop();

/** Waits until `n` executions of the pipeline have finished; resolves to how many failed. */
async function finished(url: string, pipelineId: string, n: number): Promise<number> {
  for (;;) {
    const done = await api(url, 'GET', `/api/executions?pipeline_id=${pipelineId}&status=completed&limit=1`);
    const failed = (await api(url, 'GET', `/api/executions?pipeline_id=${pipelineId}&status=failed&limit=1`)).total_count;
    if (done.total_count + failed >= n) return failed;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The feed on one server setup: messages/s acknowledged and processed, ACK latency, CPU per message. */
async function feed(label: string, serverEnv: Record<string, string>, httpPort: number, policy: string, workers = 0) {
  const fhir = await startFhirServer({ auth: 'none' });
  const server = await startServer({ OUTBOUND_ALLOW: 'loopback', ...serverEnv }, httpPort);
  const workerProcesses: Awaited<ReturnType<typeof startWorker>>[] = [];
  for (let i = 0; i < workers; i++) workerProcesses.push(await startWorker({ DATABASE_URL: serverEnv.DATABASE_URL!, OUTBOUND_ALLOW: 'loopback' }));
  /** The CPU of the server's processes and of the workers. */
  const serverCpu = () => cpuMs(server.pid) + workerProcesses.reduce((sum, w) => sum + cpuMs(w.pid!), 0);
  try {
    await api(server.url, 'POST', '/api/connectors', { name: 'Research FHIR', type: 'fhir', endpoint: fhir.baseUrl });
    const port = httpPort + 1;
    const edge = (source: string, source_port: string, target: string, target_port: string) => ({ source, source_port, target, target_port });
    const definition = {
      nodes: [
        { id: 'in', type: 'mllp-listener-trigger', config: { port, ack_mode: ACK_MODE, order: ORDER } },
        { id: 'parse', type: 'hl7v2-parse', config: {} },
        { id: 'fhir', type: 'hl7v2-to-fhir', config: { bundle_type: 'transaction' } },
        { id: 'check', type: 'fhir-validate', config: { expect: 'bundle' } },
        { id: 'deid', type: 'fhir-deidentify', config: { expect: 'bundle' } },
        { id: 'write', type: 'fhir-write', config: { connector: 'Research FHIR', operation: 'transaction' } },
      ],
      connections: [
        edge('in', 'message', 'parse', 'text'),
        edge('parse', 'message', 'fhir', 'message'),
        edge('fhir', 'bundle', 'check', 'resource'),
        edge('check', 'valid', 'deid', 'resource'),
        edge('deid', 'resource', 'write', 'resource'),
      ],
    };
    if (PATH_ONLY) {
      // the feed's own path: receive, store, queue, run, end, ACK — with one light node (the parse) instead of five
      definition.nodes = definition.nodes.slice(0, 2);
      definition.connections = definition.connections.slice(0, 1);
    }
    const p = await api(server.url, 'POST', '/api/pipelines', { name: 'ADT feed', definition, data_settings: { policy } });
    await api(server.url, 'POST', `/api/pipelines/${p.id}/deploy`);
    await new Promise((r) => setTimeout(r, 1000)); // every process of a cluster has opened the port
    // warm-up, not measured: each process's first validations load the R4 definitions, its first runs compile
    await drive(port, WARM_UP, 'WARM');
    await finished(server.url, p.id, WARM_UP);
    const started = performance.now();
    const cpuBefore = serverCpu();
    const postgresBefore = postgresCpu();
    const benchBefore = process.cpuUsage();
    const bytesBefore = serverEnv.DATABASE_URL ? await dbBytes(serverEnv.DATABASE_URL) : null;
    const ours = await drive(port);
    const accepted = ours.acks.AA ?? 0;
    // processed: until the last execution has finished; a message answered AR (the organization's queue full: "send
    // again") was not stored and runs nothing, so only the accepted ones are waited for (the ACK codes line shows them)
    const failed = await finished(server.url, p.id, WARM_UP + accepted);
    const processed = (accepted * 1000) / (performance.now() - started);
    // the server's own CPU per message (robust to other load on the machine, unlike the rates)
    const serverCpuMsPerMessage = (serverCpu() - cpuBefore) / accepted;
    // … and the database's, on Postgres (with PGlite it is in the server's)
    const postgresCpuMsPerMessage = serverEnv.DATABASE_URL ? postgresCpuSince(postgresBefore) / accepted : null;
    // … and this process's: the FHIR server (an in-memory @medplum/fhir-router, whose searches scan) and the MLLP clients
    const benchUsage = process.cpuUsage(benchBefore);
    const peerCpuMsPerMessage = (benchUsage.user + benchUsage.system) / 1000 / accepted;
    const bytes = bytesBefore ? bytesPerRun(bytesBefore, await dbBytes(serverEnv.DATABASE_URL!)) : null;
    const cpu = { serverCpuMsPerMessage, postgresCpuMsPerMessage, peerCpuMsPerMessage };
    return { label: `${label}, ${policy}`, policy, ours, processedPerSecond: processed, failed, ...cpu, bytes };
  } finally {
    for (const w of workerProcesses) await w.stop();
    server.stop();
    await fhir.close();
  }
}

const runs = [];
for (const policy of POLICIES) {
  if (!process.env.BENCH_POSTGRES_ONLY) {
    runs.push(await feed('PGlite, 1 process', { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'clinflow-bench-mllp-')) }, PORT, policy));
  }
  if (!process.env.BENCH_PGLITE_ONLY) {
    if (WORKERS) {
      const label = `Postgres, web + ${WORKERS} worker${WORKERS > 1 ? 's' : ''}`;
      const env = (url: string) => ({ DATABASE_URL: url, WEB_CONCURRENCY: '1', WORKER_IN_SERVER: 'false' });
      runs.push(await withDatabase('mllpw', (url: string) => feed(label, env(url), PORT + 10, policy, WORKERS)));
      continue;
    }
    for (const processes of (process.env.BENCH_PROCESSES ?? '1,2').split(',').map(Number)) {
      const label = `Postgres, ${processes} process${processes > 1 ? 'es' : ''}`;
      const env = (url: string) => ({ DATABASE_URL: url, WEB_CONCURRENCY: String(processes) });
      runs.push(await withDatabase(`mllp${processes}`, (url: string) => feed(label, env(url), PORT + 2 * processes, policy)));
    }
  }
}

const f = (x: number) => x.toFixed(0).padStart(7);
const g = (x: number) => x.toFixed(1).padStart(7);
console.log(`\nMLLP, ${N} ADT messages (the ${ADT.length} samples in turn), ${CONNECTIONS} connections, one machine (${os.availableParallelism()} cores)`);
console.log(`order kept per ${ORDER}${PATIENTS ? `; the messages about ${PATIENTS} patients (PID-3.1 rewritten)` : ''}`);
console.log('ACK once stored; processed: parse, FHIR, validate, de-identify, write to the FHIR server; CPU per message: the');
console.log("server's processes (with PGlite, the database too), Postgres's, the bench's (FHIR server and MLLP clients)");
console.log(`${' '.repeat(36)} | ACK msgs/s  p50 ms  p99 ms | processed/s | ratio to echo | server CPU ms | Postgres CPU ms | bench CPU ms`);
console.log(
  `${'@medplum/hl7 echo (ACK only)'.padEnd(36)} | ${f(baseline.perSecond)}    ${g(baseline.p50)} ${g(baseline.p99)} |             |          1.00 |               |                 |`,
);
for (const r of runs) {
  console.log(
    `${r.label.padEnd(36)} | ${f(r.ours.perSecond)}    ${g(r.ours.p50)} ${g(r.ours.p99)} | ${f(r.processedPerSecond)}     | ${(r.processedPerSecond / baseline.perSecond).toFixed(3).padStart(13)} | ${g(r.serverCpuMsPerMessage)}       | ${r.postgresCpuMsPerMessage === null ? '      -' : g(r.postgresCpuMsPerMessage)}         | ${g(r.peerCpuMsPerMessage)}`,
  );
  if (r.failed) console.log(`  ${r.failed} executions failed`);
  console.log(`  ACK codes: ${JSON.stringify(r.ours.acks)}`);
  const b = r.bytes;
  if (b) {
    console.log(`  database bytes per message: ${b.runs} in executions + execution_nodes, ${b.database} in the whole database (${b.executions} runs)`);
    console.log(lib.bytesByTable(b));
  }
}
fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
const result = { at: new Date().toISOString(), messages: N, connections: CONNECTIONS, policies: POLICIES, baseline, runs };
fs.writeFileSync(path.join(root, 'bench/results/mllp-feed.json'), JSON.stringify(result, null, 2));
// the feed's messages/s against the data policy (issue 27): a bar per setup and policy, processed through to the FHIR
// server (ACKed in the note), the echo's rate drawn as the baseline it is measured against
const COLORS: Record<string, string> = { full: '#2563eb', errors: '#16a34a', metadata: '#9333ea' };
const svg = barChart(
  `MLLP feed: messages/s processed by data policy (${N} ADT messages, ${CONNECTIONS} connections)`,
  runs.map((r) => ({
    label: r.label,
    value: r.processedPerSecond,
    note: `${(r.processedPerSecond / baseline.perSecond).toFixed(3)} of the echo; ACKed ${Math.round(r.ours.perSecond)}/s`,
    color: COLORS[r.policy],
  })),
  { reference: { value: baseline.perSecond, label: `@medplum/hl7 echo ${Math.round(baseline.perSecond)}/s` } },
);
fs.writeFileSync(path.join(root, 'bench/results/mllp-feed.svg'), svg);
console.log('written: bench/results/mllp-feed.{json,svg}');
