// Clinical pipeline benchmark (not a test): POST /api/execute (sync, test mode) of
//   manual-trigger → hl7v2-parse → hl7v2-to-fhir → fhir-validate → fhir-deidentify → pipeline-output
// with the ADT sample messages in turn, on PGlite, against the generic 5-node pipeline of
// bench/executions.mjs (trigger → 3 × jsonata-transform → output) on the same server in the same run.
// Reports messages/s, p50/p99 and the ratio. BENCH_SECONDS changes the duration.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AUTH, api, build, load, root, startServer } from './lib.mjs';

const SAMPLES = path.join(root, '../shared/data/hl7v2/messages');
const messages = fs
  .readdirSync(SAMPLES)
  .filter((f) => f.startsWith('ADT'))
  .sort()
  .map((f) => fs.readFileSync(path.join(SAMPLES, f), 'utf8'));

const edge = (source, source_port, target, target_port) => ({ source, source_port, target, target_port });
const clinical = {
  nodes: [
    { id: 'in', type: 'manual-trigger', config: { fields: { message: 'text' } } },
    { id: 'parse', type: 'hl7v2-parse' },
    { id: 'fhir', type: 'hl7v2-to-fhir' },
    { id: 'check', type: 'fhir-validate', config: { expect: 'bundle' } },
    { id: 'deid', type: 'fhir-deidentify' },
    { id: 'out', type: 'pipeline-output' },
  ],
  connections: [
    edge('in', 'message', 'parse', 'text'),
    edge('parse', 'message', 'fhir', 'message'),
    edge('fhir', 'bundle', 'check', 'resource'),
    edge('check', 'valid', 'deid', 'resource'),
    edge('deid', 'resource', 'out', 'value'),
  ],
};
const generic = {
  nodes: [
    { id: 'in', type: 'manual-trigger' },
    ...['a', 'b', 'c'].map((id) => ({ id, type: 'jsonata-transform', config: { expression: '$merge([$, {"seen": true}])' } })),
    { id: 'out', type: 'pipeline-output' },
  ],
  connections: [edge('in', 'event', 'a', 'input'), edge('a', 'output', 'b', 'input'), edge('b', 'output', 'c', 'input'), edge('c', 'output', 'out', 'value')],
};

const duration = Number(process.env.BENCH_SECONDS ?? 10);
build();
const server = await startServer({ DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'clinflow-bench-clinical-')) }, 3421);
try {
  const ids = {};
  for (const [name, definition] of Object.entries({ clinical, generic })) {
    const p = await api(server.url, 'POST', '/api/pipelines', { name, definition });
    await api(server.url, 'POST', `/api/pipelines/${p.id}/deploy`);
    ids[name] = p.id;
  }
  // every request a different ADT message, as a feed sends them
  const bodies = messages.map((message) => JSON.stringify({ pipeline_id: ids.clinical, inputs: { message }, test_mode: true }));
  const check = await api(server.url, 'POST', '/api/execute', JSON.parse(bodies[0]));
  if (check.status !== 'completed') throw new Error(`the clinical pipeline does not complete: ${JSON.stringify(check).slice(0, 500)}`);
  let next = 0;
  const clinicalLoad = {
    url: `${server.url}/api/execute`,
    method: 'POST',
    headers: AUTH,
    connections: 10,
    setupClient: (c) => c.on('response', () => c.setBody(bodies[next++ % bodies.length])),
    body: bodies[0],
  };
  const genericLoad = {
    url: `${server.url}/api/execute`,
    method: 'POST',
    headers: AUTH,
    connections: 10,
    body: JSON.stringify({ pipeline_id: ids.generic, inputs: { patient: 'p1' } }),
  };
  await load({ ...clinicalLoad, duration: 3 });
  await load({ ...genericLoad, duration: 3 });
  const baseline = await load({ ...genericLoad, duration });
  const full = await load({ ...clinicalLoad, duration });
  const f = (x) => String(Math.round(x)).padStart(6);
  console.log(`\nPOST /api/execute, sync, PGlite, 10 connections, ${duration} s each, ${messages.length} ADT messages in turn`);
  console.log('pipeline                                              | executions/s   p50   p99 | ratio');
  console.log(`generic: trigger → 3 × jsonata-transform → output      | ${f(baseline.rps)} ${f(baseline.p50)} ${f(baseline.p99)} | 1.00`);
  console.log(`ADT → parse → FHIR → validate → de-identify → output | ${f(full.rps)} ${f(full.p50)} ${f(full.p99)} | ${(full.rps / baseline.rps).toFixed(2)}`);
  if (full.non2xx || baseline.non2xx) console.log(`non-2xx: clinical ${full.non2xx}, generic ${baseline.non2xx}`);
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  fs.writeFileSync(
    path.join(root, 'bench/results/clinical.json'),
    JSON.stringify({ at: new Date().toISOString(), baseline, full, ratio: full.rps / baseline.rps }, null, 2),
  );
} finally {
  server.stop();
}
