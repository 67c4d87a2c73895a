// Foundation benchmark (not a test): authenticated GET /api/pipelines/{id} through the whole stack (auth,
// rate limit, database) against a bare route handler returning static JSON (/api/health) on the same
// server, in the same run, with the same load tool (autocannon). Reports req/s, p50/p99 and the ratio.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AUTH, build, load, root, startServer, withDatabase } from './lib.mjs';

async function scenario(name, extraEnv, port) {
  const server = await startServer(extraEnv, port);
  try {
    const created = await fetch(`${server.url}/api/pipelines`, {
      method: 'POST',
      headers: AUTH,
      body: JSON.stringify({ name: 'bench', definition: { nodes: [{ id: 'in', type: 'manual-trigger' }], connections: [] } }),
    }).then((r) => r.json());
    const target = { url: `${server.url}/api/pipelines/${created.id}`, headers: AUTH };
    const health = { url: `${server.url}/api/health` };
    await load(health); // warm-up of both paths
    await load(target);
    const baseline = await load(health);
    const full = await load(target);
    return { name, baseline, full, ratio: full.rps / baseline.rps };
  } finally {
    server.stop();
  }
}

build();
const results = [];
results.push(await scenario('pglite', { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'clinflow-bench-')) }, 3401));
results.push(await withDatabase('api', (url) => scenario('postgres', { DATABASE_URL: url }, 3402)));

console.log('\nGET /api/pipelines/{id} (auth + rate limit + DB) vs bare route handler, 50 connections, 10 s each');
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
