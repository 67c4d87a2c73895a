// Shared by the benchmarks: build once into .next-bench, start servers and workers, run autocannon.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import postgres from 'postgres';

export const root = path.resolve(import.meta.dirname, '..');
export const ORG = { id: 'bench-org', key: 'cfk_benchmark_admin_key_0123456789' };
export const AUTH = { authorization: `Bearer ${ORG.key}`, 'x-organization-id': ORG.id, 'content-type': 'application/json' };
const PG_ADMIN = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const env = {
  ...process.env,
  CLINFLOW_DIST_DIR: process.env.BENCH_DIST_DIR ?? '.next-bench',
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  NEXT_TELEMETRY_DISABLED: '1',
};
/** BENCH_NODE_ARGS: flags for node (V8's heap sizes, say) given to each server and worker process before its program. */
const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
/** BENCH_PROFILE=<folder>: each server and worker process writes a CPU profile (.cpuprofile) there when it stops. */
const profiled = process.env.BENCH_PROFILE
  ? { NODE_OPTIONS: [process.env.NODE_OPTIONS, `--cpu-prof --cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE)}`].filter(Boolean).join(' ') }
  : {};

export function build() {
  if (process.env.BENCH_SKIP_BUILD) return;
  console.log('building…');
  const r = spawnSync(path.join(root, 'node_modules/.bin/next'), ['build'], { cwd: root, env, stdio: 'ignore' });
  if (r.status !== 0) throw new Error('next build failed');
  const s = spawnSync(process.execPath, [path.join(root, 'scripts/build-server.mjs')], { cwd: root, env, stdio: 'inherit' });
  if (s.status !== 0) throw new Error('building the server failed');
}

/** The bundled server or worker of the bench's build (scripts/build-server.mjs). */
export const program = (which) => path.join(root, env.CLINFLOW_DIST_DIR, 'clinflow', `${which}.cjs`);

/**
 * Stops a server or worker and resolves once it has exited: the next bench may start a server on the same port, and a
 * server still shutting down would answer its start-up check and then refuse every request (ECONNREFUSED).
 */
function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export async function startServer(extraEnv, port) {
  // another bench (another checkout) on the same port would answer the start-up check below, and the bench would then
  // measure, or hang on, a server that is not its own
  const taken = await fetch(`http://127.0.0.1:${port}/api/openapi.json`).then(
    () => true,
    () => false,
  );
  if (taken) throw new Error(`port ${port} is already in use: stop what listens there, or give the bench other ports (BENCH_PORT)`);
  const child = spawn(process.execPath, [...nodeArgs, program('server')], {
    cwd: root,
    env: {
      ...env,
      PORT: String(port),
      HOSTNAME: '127.0.0.1',
      WEB_CONCURRENCY: '1',
      BOOTSTRAP_ORG_ID: ORG.id,
      BOOTSTRAP_API_KEY: ORG.key,
      RATE_LIMIT_PER_MINUTE: '100000000',
      ...profiled,
      ...extraEnv,
    },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 400; i++) {
    try {
      if ((await fetch(`${url}/api/openapi.json`)).ok) return { url, pid: child.pid, stop: () => stopChild(child) };
    } catch {}
    await new Promise((r) => setTimeout(r, 150));
  }
  child.kill('SIGKILL');
  throw new Error('server did not start');
}

export async function startWorker(extraEnv) {
  const child = spawn(process.execPath, [...nodeArgs, program('worker')], {
    cwd: root,
    env: { ...env, ...profiled, ...extraEnv },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve) => child.stdout.on('data', (d) => String(d).includes('ready') && resolve()));
  return { pid: child.pid, stop: () => stopChild(child) };
}

export function load(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: 50, duration: 10, ...opts }, (err, r) => {
      if (err) return reject(err);
      resolve({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx + r.errors, total: r.requests.total });
    });
  });
}

/** BENCH_POLICY: the data policy (issue 27) of the benches' pipelines, one or several (full,errors,metadata); full by default. */
export const POLICIES = (process.env.BENCH_POLICY ?? 'full')
  .split(',')
  .map((p) => p.trim())
  .filter(Boolean);

/**
 * What a database holds of runs, in bytes: the executions and execution_nodes tables with their TOAST and indexes
 * (pg_total_relation_size: dead row versions count until vacuumed, so a delta is what was written), the whole
 * database, and the executions' count. Taken before and after a load, the delta over the runs made is bytes per run.
 */
export async function dbBytes(url) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [r] = await sql`select pg_total_relation_size('executions') + pg_total_relation_size('execution_nodes') as runs,
      pg_database_size(current_database()) as database, (select count(*) from executions) as executions`;
    // each table's heap, TOAST and indexes apart (every schema, pg-boss's included): where a message's bytes go
    const parts = await sql`select n.nspname || '.' || c.relname as name, pg_relation_size(c.oid) as heap,
        coalesce(pg_total_relation_size(nullif(c.reltoastrelid, 0)), 0) as toast, pg_indexes_size(c.oid) as indexes
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema')`;
    const tables = Object.fromEntries(parts.map((t) => [t.name, { heap: Number(t.heap), toast: Number(t.toast), indexes: Number(t.indexes) }]));
    return { runs: Number(r.runs), database: Number(r.database), executions: Number(r.executions), tables };
  } finally {
    await sql.end();
  }
}

/** Bytes per execution between two dbBytes readings. */
export function bytesPerRun(before, after) {
  const n = after.executions - before.executions;
  if (n <= 0) return null;
  /** Per table, per run: the heap, TOAST and index bytes that grew, the largest first (what grew by under 50 bytes a run left out). */
  const tables = Object.entries(after.tables ?? {})
    .map(([name, a]) => {
      const b = before.tables?.[name] ?? { heap: 0, toast: 0, indexes: 0 };
      return { name, heap: Math.round((a.heap - b.heap) / n), toast: Math.round((a.toast - b.toast) / n), indexes: Math.round((a.indexes - b.indexes) / n) };
    })
    .filter((t) => t.heap + t.toast + t.indexes >= 50)
    .sort((x, y) => y.heap + y.toast + y.indexes - (x.heap + x.toast + x.indexes));
  return { runs: Math.round((after.runs - before.runs) / n), database: Math.round((after.database - before.database) / n), executions: n, tables };
}

/** The per-table lines of a bytesPerRun, for a bench's report. */
export const bytesByTable = (b) => b.tables.map((t) => `    ${t.name.padEnd(32)} heap ${t.heap}, TOAST ${t.toast}, indexes ${t.indexes}`).join('\n');

export async function withDatabase(label, f) {
  const admin = postgres(PG_ADMIN, { max: 1, onnotice: () => {} });
  const name = `clinflow_bench_${label}_${process.pid}`;
  await admin.unsafe(`create database ${name}`);
  const url = new URL(PG_ADMIN);
  url.pathname = `/${name}`;
  try {
    return await f(url.toString());
  } finally {
    await new Promise((r) => setTimeout(r, 500));
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

export async function api(url, method, path, body) {
  const r = await fetch(`${url}${path}`, { method, headers: AUTH, body: body === undefined ? undefined : JSON.stringify(body) });
  return r.json();
}

/** CPU time (user + system, ms) one process has used so far, from /proc (Linux; clock ticks of 10 ms); 0 when it is gone. */
export function ownCpuMs(pid) {
  try {
    const fields = fs
      .readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** The same for a process and its children (a cluster's server processes). */
export function cpuMs(pid) {
  let children = [];
  try {
    children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  } catch {}
  return ownCpuMs(pid) + children.reduce((n, c) => n + ownCpuMs(c), 0);
}

/**
 * CPU time of the machine's Postgres processes (its server and the connections' backends, which live as long as
 * the server's pools); per process, since a backend that ends takes its count with it.
 */
export function postgresCpu() {
  const out = new Map();
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') out.set(pid, ownCpuMs(pid));
    } catch {}
  }
  return out;
}

/** What the Postgres processes of `before` and those started since used from then until now. */
export function postgresCpuSince(before) {
  let ms = 0;
  for (const [pid, now] of postgresCpu()) ms += now - (before.get(pid) ?? 0);
  return ms;
}

/**
 * A horizontal bar chart (plain SVG, no library): one bar per row, its value printed after it, an optional `note`
 * (e.g. a ratio) after the value; `reference` draws a dashed line at that value with its label (a baseline).
 */
export function barChart(title, rows, { unit = '/s', reference } = {}) {
  const w = 760,
    bar = 24,
    gap = 10,
    left = 260,
    top = 44;
  const max = Math.max(...rows.map((r) => r.value), reference?.value ?? 0, 1);
  const scale = (v) => ((w - left - 150) * v) / max;
  const h = top + rows.length * (bar + gap) + 24;
  const bars = rows.map((r, i) => {
    const y = top + i * (bar + gap);
    const len = scale(r.value);
    const text = `${Math.round(r.value)}${unit}${r.note ? ` (${r.note})` : ''}`;
    return (
      `<text x="${left - 8}" y="${y + bar * 0.68}" text-anchor="end" font-size="13">${r.label}</text>` +
      `<rect x="${left}" y="${y}" width="${len.toFixed(1)}" height="${bar}" fill="${r.color ?? '#2563eb'}"/>` +
      `<text x="${left + len + 6}" y="${y + bar * 0.68}" font-size="13">${text}</text>`
    );
  });
  const line = reference
    ? `<line x1="${left + scale(reference.value)}" y1="${top - 8}" x2="${left + scale(reference.value)}" y2="${h - 14}" stroke="#888" stroke-dasharray="4 3"/>` +
      `<text x="${left + scale(reference.value)}" y="${h - 2}" text-anchor="middle" font-size="12" fill="#555">${reference.label}</text>`
    : '';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif">` +
    `<text x="10" y="24" font-size="15" font-weight="bold">${title}</text>${bars.join('')}${line}</svg>\n`
  );
}
