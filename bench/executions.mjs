// Execution benchmarks (not tests): sync POST /api/execute of a 5-node pipeline over HTTP (executions/s,
// p99) on PGlite and Postgres, each against a bare route handler (GET /api/health) on the same server in
// the same run; and async executions on Postgres worked by 2 workers (completed/s, and enqueue-to-start latency
// p50/p99 read from the execution rows, under full load and one at a time), in both deployments: one web process
// and 2 separate worker processes, and the default of 2 server processes that are each also a worker.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { AUTH, api, build, cpuMs, load, ownCpuMs, postgresCpu, postgresCpuSince, root, startServer, startWorker, withDatabase } from './lib.mjs';

// in ──▶ a ──▶ b ──▶ c (jsonata-transform) ──▶ out
const definition = {
  nodes: [
    { id: 'in', type: 'manual-trigger' },
    ...['a', 'b', 'c'].map((id) => ({ id, type: 'jsonata-transform', config: { expression: '$merge([$, {"seen": true}])' } })),
    { id: 'out', type: 'pipeline-output' },
  ],
  connections: [
    { source: 'in', source_port: 'event', target: 'a', target_port: 'input' },
    { source: 'a', source_port: 'output', target: 'b', target_port: 'input' },
    { source: 'b', source_port: 'output', target: 'c', target_port: 'input' },
    { source: 'c', source_port: 'output', target: 'out', target_port: 'value' },
  ],
};

async function pipelineOn(url) {
  const p = await api(url, 'POST', '/api/pipelines', { name: 'bench 5 nodes', definition });
  await api(url, 'POST', `/api/pipelines/${p.id}/deploy`);
  return p.id;
}

async function sync(name, extraEnv, port) {
  const server = await startServer(extraEnv, port);
  try {
    const id = await pipelineOn(server.url);
    const request = { url: `${server.url}/api/execute`, method: 'POST', headers: AUTH, body: JSON.stringify({ pipeline_id: id, inputs: { patient: 'p1' } }) };
    const health = { url: `${server.url}/api/health`, connections: 10 };
    await load({ ...request, duration: 3, connections: 10 });
    await load({ ...health, duration: 3 });
    const baseline = await load(health);
    const before = { web: cpuMs(server.pid), postgres: postgresCpu() };
    const full = await load({ ...request, connections: 10 });
    // CPU per execution: the server's own (what load moves least), and every Postgres process's (shared: others' work counts too)
    const cpu = { web: (cpuMs(server.pid) - before.web) / full.total, postgres: postgresCpuSince(before.postgres) / full.total };
    return { name, ...full, baseline_rps: baseline.rps, ratio: full.rps / baseline.rps, cpu };
  } finally {
    await server.stop();
  }
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** `separate`: one web process and 2 worker processes; `servers`: 2 server processes (node:cluster), each a worker. */
async function asyncOnPostgres(deployment) {
  return withDatabase('async', async (dbUrl) => {
    const queueEnv = { DATABASE_URL: dbUrl, WORKER_CONCURRENCY: '25' };
    const separate = deployment === 'separate';
    const server = await startServer(separate ? { ...queueEnv, WORKER_IN_SERVER: 'false' } : { ...queueEnv, WEB_CONCURRENCY: '2' }, 3412);
    const workers = separate ? [await startWorker(queueEnv), await startWorker(queueEnv)] : [];
    const db = postgres(dbUrl, { max: 2, onnotice: () => {} });
    try {
      const id = await pipelineOn(server.url);
      const body = JSON.stringify({ pipeline_id: id, inputs: { patient: 'p1' }, async: true });
      const drained = async () => {
        for (let i = 0; i < 600; i++) {
          const [{ n }] = await db`select count(*)::int as n from executions where status in ('queued', 'running')`;
          if (n === 0) return;
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      // one at a time first: the latency of the wake-up path itself, without queueing behind other work
      for (let i = 0; i < 200; i++) {
        await api(server.url, 'POST', '/api/execute', JSON.parse(body));
        await new Promise((r) => setTimeout(r, 10));
      }
      await drained();
      const quiet = await db`select extract(epoch from started_at - created_at) * 1000 as l from executions order by l`;
      await db`delete from executions`;
      const cpuBefore = { web: cpuMs(server.pid), workers: workers.map((w) => ownCpuMs(w.pid)), postgres: postgresCpu() };
      const sent = await load({ url: `${server.url}/api/execute`, method: 'POST', headers: AUTH, body, connections: 20, duration: 10 });
      await new Promise((r) => setTimeout(r, 1000)); // answers autocannon stopped waiting for
      await drained();
      const rows =
        await db`select extract(epoch from created_at) * 1000 as c, extract(epoch from started_at) * 1000 as s, extract(epoch from finished_at) * 1000 as f, status from executions`;
      const done = rows.filter((r) => r.status === 'completed');
      // CPU per execution of the load: the web processes', the worker processes', Postgres's (the rest of the machine is
      // autocannon's); with `servers` the web figure is the whole of both server processes'
      const per = (ms) => ms / Math.max(rows.length, 1);
      const cpu = {
        web_ms: per(cpuMs(server.pid) - cpuBefore.web),
        workers_ms: per(workers.reduce((n, w, i) => n + ownCpuMs(w.pid) - cpuBefore.workers[i], 0)),
        postgres_ms: per(postgresCpuSince(cpuBefore.postgres)),
      };
      const other = await db`select status, error, count(*)::int as n from executions where status <> 'completed' group by 1, 2`;
      if (other.length) console.log('not completed:', JSON.stringify(other));
      const first = Math.min(...done.map((r) => Number(r.c)));
      const last = Math.max(...done.map((r) => Number(r.f)));
      const lat = done.map((r) => Number(r.s) - Number(r.c)).sort((a, b) => a - b);
      return {
        deployment,
        accepted: rows.length,
        refused_by_concurrency_limit: sent.non2xx,
        completed: done.length,
        completed_per_s: done.length / ((last - first) / 1000),
        enqueue_to_start_p50_ms: percentile(lat, 50),
        enqueue_to_start_p99_ms: percentile(lat, 99),
        one_at_a_time_p50_ms: percentile(
          quiet.map((r) => Number(r.l)),
          50,
        ),
        one_at_a_time_p99_ms: percentile(
          quiet.map((r) => Number(r.l)),
          99,
        ),
        cpu_ms_per_execution: cpu,
      };
    } finally {
      await db.end();
      await Promise.all([...workers.map((w) => w.stop()), server.stop()]);
    }
  });
}

build();
// BENCH_ONLY=async (or sync) runs one half; BENCH_ONLY=pglite only the sync figure on PGlite; BENCH_ONLY=separate or
// servers the async figure of one deployment
const only = process.env.BENCH_ONLY;
const syncResults = [];
if (only === undefined || only === 'sync' || only === 'pglite') {
  syncResults.push(await sync('pglite', { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'clinflow-bench-')) }, 3410));
  if (only !== 'pglite') syncResults.push(await withDatabase('sync', (url) => sync('postgres', { DATABASE_URL: url }, 3411)));
}
const asyncResults = [];
for (const deployment of ['separate', 'servers']) {
  if (only === undefined || only === 'async' || only === deployment) asyncResults.push(await asyncOnPostgres(deployment));
}

console.log('\nSync POST /api/execute, 5-node pipeline, 10 connections, 10 s (target >= 1000 executions/s)');
for (const r of syncResults) {
  const errors = r.non2xx ? `  (${r.non2xx} non-2xx)` : '';
  console.log(
    `${r.name.padEnd(9)} ${Math.round(r.rps)} executions/s  p50 ${r.p50} ms  p99 ${r.p99} ms${errors}  | bare route ${Math.round(r.baseline_rps)} req/s, ratio ${r.ratio.toFixed(2)}  | CPU/exec server ${r.cpu.web.toFixed(2)} ms` +
      (r.name === 'postgres' ? `, Postgres ${r.cpu.postgres.toFixed(2)} ms` : ''),
  );
}
if (asyncResults.length) console.log('\nAsync on Postgres, 2 workers (targets: >= 500 completed/s, enqueue-to-start p50 <= 50 ms)');
for (const a of asyncResults) {
  const c = a.cpu_ms_per_execution;
  console.log(
    `${a.deployment === 'separate' ? '1 web process + 2 worker processes' : '2 server processes, each a worker'}: ` +
      `${Math.round(a.completed_per_s)} completed/s (${a.completed} of ${a.accepted} accepted; ${a.refused_by_concurrency_limit} refused at the 100-execution limit)  ` +
      `enqueue-to-start p50 ${Math.round(a.enqueue_to_start_p50_ms)} ms, p99 ${Math.round(a.enqueue_to_start_p99_ms)} ms; ` +
      `one at a time: p50 ${a.one_at_a_time_p50_ms.toFixed(1)} ms, p99 ${a.one_at_a_time_p99_ms.toFixed(1)} ms` +
      (syncResults[1] ? `; ratio to sync on Postgres ${(a.completed_per_s / syncResults[1].rps).toFixed(2)}` : ''),
  );
  console.log(
    `  CPU per execution under load: web ${c.web_ms.toFixed(2)} ms, worker processes ${c.workers_ms.toFixed(2)} ms, Postgres ${c.postgres_ms.toFixed(2)} ms`,
  );
}
fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
fs.writeFileSync(
  path.join(root, 'bench/results/executions.json'),
  JSON.stringify({ at: new Date().toISOString(), sync: syncResults, async: asyncResults }, null, 2),
);
