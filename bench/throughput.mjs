// Issue 12's benchmark (not a test): what our own server in front of Next serves, each figure beside its
// baselines measured in the same run — a bare node:http JSON route, and an empty Next route handler
// (GET /api/health, which our server hands to Next) — on PGlite and on Postgres, with 1 and 2 processes;
// then how the cost of a sync execution grows with pipeline size and input size. Writes
// bench/results/throughput.json, a Markdown table and an SVG chart.
// BENCH_POLICY=full|errors|metadata (several, comma-separated, each in turn): the 5-node pipeline's data policy; on
// Postgres the table reports the database bytes each sync execution wrote.
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AUTH, api, barChart, build, bytesPerRun, dbBytes, load, POLICIES, root, startServer, withDatabase } from './lib.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const out = path.join(root, 'bench/results');

/** A bare node:http route answering static JSON, in a process of its own: the ceiling of any Node HTTP server here. */
async function bareServer(port) {
  const code = `require('node:http').createServer((q, s) => { s.setHeader('content-type', 'application/json'); s.end('{"status":"ok"}'); }).listen(${port}, '127.0.0.1', () => console.log('ready'))`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve) => child.stdout.once('data', resolve));
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

function chain(n) {
  const mids = Array.from({ length: n - 2 }, (_, i) => `t${i}`);
  const nodes = [
    { id: 'in', type: 'manual-trigger' },
    ...mids.map((id) => ({ id, type: 'jsonata-transform', config: { expression: '$merge([$, {"seen": true}])' } })),
    { id: 'out', type: 'pipeline-output' },
  ];
  const ids = ['in', ...mids, 'out'];
  const connections = ids
    .slice(1)
    .map((id, i) => ({ source: ids[i], source_port: i === 0 ? 'event' : 'output', target: id, target_port: id === 'out' ? 'value' : 'input' }));
  return { nodes, connections };
}

async function deployed(url, n, policy = 'full') {
  const p = await api(url, 'POST', '/api/pipelines', { name: `bench ${n} nodes`, definition: chain(n), data_settings: { policy } });
  await api(url, 'POST', `/api/pipelines/${p.id}/deploy`);
  return p.id;
}

/** Resident size in MB of a process and its children (the cluster's server processes). */
function rss(pid) {
  const pids = [
    pid,
    ...execFileSync('sh', ['-c', `pgrep -P ${pid} || true`])
      .toString()
      .split('\n')
      .filter(Boolean)
      .map(Number),
  ];
  return pids
    .map((p) => {
      try {
        const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'));
        return m ? Math.round(Number(m[1]) / 1024) : 0;
      } catch {
        return 0;
      }
    })
    .filter(Boolean);
}

const execute = (url, pipelineId, inputs = { n: 1 }, connections = 20) => ({
  url: `${url}/api/execute`,
  method: 'POST',
  headers: AUTH,
  body: JSON.stringify({ pipeline_id: pipelineId, inputs }),
  connections,
  duration: SECONDS,
});

async function scenario(name, extraEnv, port, policy = 'full') {
  const server = await startServer(extraEnv, port);
  await new Promise((r) => setTimeout(r, extraEnv.WEB_CONCURRENCY === '2' ? 3000 : 500));
  try {
    const idle = rss(server.pid);
    const created = await api(server.url, 'POST', '/api/pipelines', {
      name: 'bench',
      definition: { nodes: [{ id: 'in', type: 'manual-trigger' }], connections: [] },
    });
    const get = { url: `${server.url}/api/pipelines/${created.id}`, headers: AUTH, duration: SECONDS };
    const five = await deployed(server.url, 5, policy);
    await load({ ...get, duration: 2 }); // warm-up
    await load({ ...execute(server.url, five), duration: 2 });
    const r = {
      name,
      nextRoute: await load({ url: `${server.url}/api/health`, duration: SECONDS }),
      get50: await load(get),
      get10: await load({ ...get, connections: 10 }),
    };
    // the database bytes each sync execution wrote, on Postgres (BENCH_POLICY)
    const before = extraEnv.DATABASE_URL ? await dbBytes(extraEnv.DATABASE_URL) : null;
    r.exec = await load(execute(server.url, five));
    r.bytes = before ? bytesPerRun(before, await dbBytes(extraEnv.DATABASE_URL)) : null;
    return { ...r, name: `${name}, ${policy}`, rss: { idle, load: rss(server.pid) } };
  } finally {
    server.stop();
  }
}

async function growth(url) {
  const rows = [];
  for (const n of [5, 20, 100]) {
    const id = await deployed(url, n);
    await load({ ...execute(url, id), duration: 2 });
    rows.push({ what: `${n} nodes, 1 KB input`, ...(await load(execute(url, id, { blob: 'x'.repeat(1000) }))) });
  }
  const five = await deployed(url, 5);
  for (const [label, bytes] of [
    ['100 KB', 100_000],
    ['1 MB', 1_000_000],
  ]) {
    rows.push({ what: `5 nodes, ${label} input`, ...(await load(execute(url, five, { blob: 'x'.repeat(bytes) }, 4))) });
  }
  return rows;
}

build();
const bare = await bareServer(3409);
const bareRoute = await load({ url: bare.url, duration: SECONDS });
bare.stop();
const results = [];
for (const policy of POLICIES) {
  results.push(await scenario('PGlite, 1 process', { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'clinflow-bench-')) }, 3410, policy));
}
let grown = [];
await withDatabase('throughput', async (url) => {
  for (const policy of POLICIES) {
    results.push(await scenario('Postgres, 1 process', { DATABASE_URL: url, WEB_CONCURRENCY: '1' }, 3411, policy));
    results.push(await scenario('Postgres, 2 processes', { DATABASE_URL: url, WEB_CONCURRENCY: '2' }, 3412, policy));
  }
  const server = await startServer({ DATABASE_URL: url, WEB_CONCURRENCY: '2' }, 3413);
  await new Promise((r) => setTimeout(r, 3000));
  try {
    grown = await growth(server.url);
  } finally {
    server.stop();
  }
});

const f = (x) => String(Math.round(x)).padStart(6);
const lines = [
  `# Throughput (issue 12), ${new Date().toISOString().slice(0, 10)}, ${os.availableParallelism()} cores, autocannon on the same machine, ${SECONDS} s per figure`,
  '',
  `Bare node:http JSON route (its own process): ${f(bareRoute.rps)} req/s, p99 ${bareRoute.p99} ms (50 connections).`,
  '',
  '| server, data policy | empty Next route req/s | GET /api/pipelines/{id} req/s (50 conn) | × Next route | p99 at 10 conn | ' +
    'sync execute 5 nodes /s (20 conn) | p99 | DB bytes per execution | RSS MB idle → load |',
  '|---|---|---|---|---|---|---|---|---|',
  ...results.map(
    (r) =>
      `| ${r.name} | ${f(r.nextRoute.rps)} | ${f(r.get50.rps)} | ${(r.get50.rps / r.nextRoute.rps).toFixed(2)} | ${r.get10.p99} ms | ${f(r.exec.rps)} | ${r.exec.p99} ms | ${r.bytes ? `${r.bytes.runs} (db ${r.bytes.database})` : '-'} | ${r.rss.idle.join('+')} → ${r.rss.load.join('+')} |` +
      (r.get50.non2xx || r.exec.non2xx ? ` (${r.get50.non2xx + r.exec.non2xx} non-2xx!)` : ''),
  ),
  '',
  'Sync executions on Postgres, 2 processes, as the work grows:',
  '',
  '| pipeline and input | executions/s | p50 | p99 |',
  '|---|---|---|---|',
  ...grown.map((g) => `| ${g.what} | ${f(g.rps)} | ${g.p50} ms | ${g.p99} ms |` + (g.non2xx ? ` (${g.non2xx} non-2xx!)` : '')),
];
console.log('\n' + lines.join('\n'));
fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, 'throughput.json'), JSON.stringify({ at: new Date().toISOString(), bareRoute, results, growth: grown }, null, 2));
fs.writeFileSync(path.join(out, 'throughput.md'), lines.join('\n') + '\n');
fs.writeFileSync(
  path.join(out, 'throughput.svg'),
  barChart(
    'Sync executions/s as the work grows (Postgres, 2 processes)',
    grown.map((g) => ({ label: g.what, value: g.rps })),
  ),
);
console.log(`\nwritten: bench/results/throughput.{json,md,svg}`);
