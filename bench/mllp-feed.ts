// Issue 8's feed as a benchmark: ADT messages over MLLP → hl7v2-parse → hl7v2-to-fhir → fhir-validate →
// fhir-deidentify → fhir-write (transaction) into a FHIR server, end to end on this machine (PGlite), against
// @medplum/hl7's plain MLLP echo (an ACK per message, nothing else) with the same client load in the same run.
// Reports messages/s acknowledged (each ACK comes once the message is stored as an execution), ACK latency
// p50/p99, and messages/s processed through to the FHIR server. Needs the .next-bench build of `npm run bench`
// (BENCH_SKIP_BUILD=1 reuses it). Run it with `npx node bench/bundled.mjs mllp-feed`. BENCH_MESSAGES, BENCH_CONNECTIONS.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Hl7Message } from '@medplum/core';
import { Hl7Client, Hl7Server } from '@medplum/hl7';
import { startFhirServer } from '../tests/support/fhir-server';

// bench/lib.mjs is loaded from the checkout at run time (bundled, it would look for the app beside the bundle)
const root = path.resolve(process.env.BENCH_ROOT ?? process.cwd());
const lib = (await import(path.join(root, 'bench/lib.mjs'))) as typeof import('./lib.mjs');
const { api, build, startServer } = lib;

const N = Number(process.env.BENCH_MESSAGES ?? 400);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
/** The server's HTTP port; the listener takes the next one. */
const PORT = Number(process.env.BENCH_PORT ?? 3431);
/** BENCH_PROFILE=<folder>: the server writes a CPU profile (.cpuprofile) there when it stops. */
const PROFILE: Record<string, string> = process.env.BENCH_PROFILE ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE)}` } : {};
const DIR = path.join(root, '../shared/data/hl7v2/messages');
const ADT = fs.readdirSync(DIR).filter((f) => f.startsWith('ADT')).sort().map((f) => fs.readFileSync(path.join(DIR, f), 'utf8').replace(/\r?\n/g, '\r').trim());

/** CPU time (user + system, ms) the process has used so far, from /proc (Linux; clock ticks of 10 ms). */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** Sends N messages over `connections` MLLP connections at once; each connection waits for an ACK before its next. */
async function drive(port: number): Promise<{ perSecond: number; p50: number; p99: number; acks: Record<string, number>; ms: number }> {
  const latencies: number[] = [];
  const acks: Record<string, number> = {};
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      const client = new Hl7Client({ host: '127.0.0.1', port, connectTimeout: 10_000 });
      try {
        while (next < N) {
          const i = next++;
          const text = ADT[i % ADT.length]!.replace(/^(MSH(?:\|[^|]*){8}\|)[^|]*/, `$1BENCH${i}`); // a control id of its own
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
  return { perSecond: (N * 1000) / ms, p50: at(0.5), p99: at(0.99), acks, ms };
}

build();
// baseline: the plain echo of @medplum/hl7, an ACK per message and nothing else
const echo = new Hl7Server((connection) => connection.addEventListener('message', ({ message }) => connection.send(message.buildAck())));
await echo.start(0);
const echoPort = (echo.server!.address() as { port: number }).port;
const baseline = await drive(echoPort);
await echo.stop();

const fhir = await startFhirServer({ auth: 'none' });
const server = await startServer({ DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'clinflow-bench-mllp-')), OUTBOUND_ALLOW: 'loopback', ...PROFILE }, PORT);
try {
  await api(server.url, 'POST', '/api/connectors', { name: 'Research FHIR', type: 'fhir', endpoint: fhir.baseUrl });
  const port = PORT + 1;
  const edge = (source: string, source_port: string, target: string, target_port: string) => ({ source, source_port, target, target_port });
  const definition = {
    nodes: [
      { id: 'in', type: 'mllp-listener-trigger', config: { port } },
      { id: 'parse', type: 'hl7v2-parse', config: {} },
      { id: 'fhir', type: 'hl7v2-to-fhir', config: { bundle_type: 'transaction' } },
      { id: 'check', type: 'fhir-validate', config: { expect: 'bundle' } },
      { id: 'deid', type: 'fhir-deidentify', config: { expect: 'bundle' } },
      { id: 'write', type: 'fhir-write', config: { connector: 'Research FHIR', operation: 'transaction' } },
    ],
    connections: [edge('in', 'message', 'parse', 'text'), edge('parse', 'message', 'fhir', 'message'), edge('fhir', 'bundle', 'check', 'resource'), edge('check', 'valid', 'deid', 'resource'), edge('deid', 'resource', 'write', 'resource')],
  };
  const p = await api(server.url, 'POST', '/api/pipelines', { name: 'ADT feed', definition });
  await api(server.url, 'POST', `/api/pipelines/${p.id}/deploy`);
  const started = performance.now();
  const cpuBefore = cpuMs(server.pid);
  const benchBefore = process.cpuUsage();
  const ours = await drive(port);
  // processed: until the last execution has finished
  let finished = 0;
  for (;;) {
    const page = await api(server.url, 'GET', `/api/executions?pipeline_id=${p.id}&status=completed&limit=1`);
    const failed = await api(server.url, 'GET', `/api/executions?pipeline_id=${p.id}&status=failed&limit=1`);
    finished = page.total_count + failed.total_count;
    if (finished >= N) {
      if (failed.total_count) console.log(`${failed.total_count} executions failed`);
      break;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const processed = (N * 1000) / (performance.now() - started);
  // the server's own CPU per message (robust to other load on the machine, unlike the rates)
  const cpuPerMessage = (cpuMs(server.pid) - cpuBefore) / N;
  // … and this process's: the FHIR server (an in-memory @medplum/fhir-router, whose searches scan) and the MLLP clients
  const benchUsage = process.cpuUsage(benchBefore);
  const peerCpuPerMessage = (benchUsage.user + benchUsage.system) / 1000 / N;
  const f = (x: number) => x.toFixed(0).padStart(7);
  const g = (x: number) => x.toFixed(1).padStart(7);
  console.log(`\nMLLP, ${N} ADT messages (the ${ADT.length} samples in turn), ${CONNECTIONS} connections, PGlite, one machine`);
  console.log('                                                   | msgs/s  ACK p50  ACK p99 (ms) | ratio');
  console.log(`@medplum/hl7 echo (ACK only)                       | ${f(baseline.perSecond)} ${g(baseline.p50)} ${g(baseline.p99)}      | 1.00`);
  console.log(`Clinflow listener, ACK once stored                 | ${f(ours.perSecond)} ${g(ours.p50)} ${g(ours.p99)}      | ${(ours.perSecond / baseline.perSecond).toFixed(3)}`);
  console.log(`… processed to the FHIR server (parse, FHIR, validate, de-identify, write) | ${f(processed)} msgs/s`);
  console.log(`server CPU per message (ACK and processing, the status polls included): ${cpuPerMessage.toFixed(1)} ms`);
  console.log(`this process's CPU per message (the FHIR server and the MLLP clients): ${peerCpuPerMessage.toFixed(1)} ms`);
  console.log(`ACK codes: ${JSON.stringify(ours.acks)}`);
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  fs.writeFileSync(path.join(root, 'bench/results/mllp-feed.json'), JSON.stringify({ at: new Date().toISOString(), messages: N, connections: CONNECTIONS, baseline, ours, processedPerSecond: processed, serverCpuMsPerMessage: cpuPerMessage, peerCpuMsPerMessage: peerCpuPerMessage }, null, 2));
} finally {
  server.stop();
  await fhir.close();
}
