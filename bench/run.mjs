// Benchmarks of the foundation (not tests): authenticated GET /api/pipelines/{id} through the whole stack
// (auth, rate limit, database) against a bare route handler returning static JSON (/api/health) on the same
// server, in the same run, with the same load tool (autocannon). Reports req/s, p50/p99 and their ratio.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import postgres from 'postgres';

const root = path.resolve(import.meta.dirname, '..');
const DIST = '.next-bench';
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const ORG = { id: 'bench-org', key: 'cfk_benchmark_admin_key_0123456789' };
const PG_ADMIN = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const env = { ...process.env, CLINFLOW_DIST_DIR: DIST, NODE_ENV: 'production', LOG_LEVEL: 'warn' };

function build() {
  console.log('building…');
  const r = spawnSync(path.join(root, 'node_modules/.bin/next'), ['build'], { cwd: root, env, stdio: 'ignore' });
  if (r.status !== 0) throw new Error('next build failed');
}

async function start(extraEnv, port) {
  const child = spawn(process.execPath, [path.join(root, 'node_modules/next/dist/bin/next'), 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: root,
    env: { ...env, BOOTSTRAP_ORG_ID: ORG.id, BOOTSTRAP_API_KEY: ORG.key, RATE_LIMIT_PER_MINUTE: '100000000', ...extraEnv },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 400; i++) {
    try {
      if ((await fetch(`${url}/api/openapi.json`)).ok) return { url, stop: () => child.kill('SIGTERM') };
    } catch {}
    await new Promise((r) => setTimeout(r, 150));
  }
  child.kill('SIGKILL');
  throw new Error('server did not start');
}

function load(url, headers = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers }, (err, r) => {
      if (err) return reject(err);
      const non2xx = r.non2xx + r.errors;
      resolve({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx });
    });
  });
}

async function scenario(name, extraEnv, port) {
  const server = await start(extraEnv, port);
  try {
    const headers = { authorization: `Bearer ${ORG.key}`, 'x-organization-id': ORG.id, 'content-type': 'application/json' };
    const created = await fetch(`${server.url}/api/pipelines`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'bench', definition: { nodes: [{ id: 'in', type: 'manual-trigger' }], connections: [] } }),
    }).then((r) => r.json());
    const target = `${server.url}/api/pipelines/${created.id}`;
    await load(`${server.url}/api/health`); // warm-up of both paths
    await load(target, headers);
    const baseline = await load(`${server.url}/api/health`);
    const full = await load(target, headers);
    return { name, baseline, full, ratio: full.rps / baseline.rps };
  } finally {
    server.stop();
  }
}

build();
const results = [];
results.push(await scenario('pglite', { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'clinflow-bench-')) }, 3401));
const admin = postgres(PG_ADMIN, { max: 1, onnotice: () => {} });
const dbName = `clinflow_bench_${process.pid}`;
await admin.unsafe(`create database ${dbName}`);
try {
  const url = new URL(PG_ADMIN);
  url.pathname = `/${dbName}`;
  results.push(await scenario('postgres', { DATABASE_URL: url.toString() }, 3402));
} finally {
  await new Promise((r) => setTimeout(r, 500));
  await admin.unsafe(`drop database if exists ${dbName} with (force)`);
  await admin.end();
}

console.log(`\nGET /api/pipelines/{id} (auth + rate limit + DB) vs bare static route, ${CONNECTIONS} connections, ${DURATION}s each`);
console.log('db        | baseline req/s  p50  p99 | full req/s  p50  p99 | ratio (target >= 0.5) | full p99 (target <= 20 ms)');
for (const r of results) {
  const f = (x) => String(Math.round(x)).padStart(6);
  console.log(
    `${r.name.padEnd(9)} | ${f(r.baseline.rps)} ${f(r.baseline.p50)} ${f(r.baseline.p99)} | ${f(r.full.rps)} ${f(r.full.p50)} ${f(r.full.p99)} | ${r.ratio.toFixed(2)} | ${r.full.p99} ms` +
      (r.full.non2xx ? `  (${r.full.non2xx} non-2xx!)` : ''),
  );
}
fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
fs.writeFileSync(path.join(root, 'bench/results/foundation.json'), JSON.stringify({ at: new Date().toISOString(), results }, null, 2));
