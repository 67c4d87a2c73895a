// bench (not a test): counts the statements one execution sends to Postgres (ASYNC=1: an async one) — log_statement =
// all in a database of its own, then that database's entries in Postgres's log during N sequential executions.
import fs from 'node:fs';
import postgres from 'postgres';
import { AUTH, api, startServer } from './lib.mjs';
const N = Number(process.env.N ?? 50);
const LOG = '/var/log/postgresql/postgresql-15-main.log';
const admin = postgres('postgres://postgres@127.0.0.1:5432/test', { max: 1, onnotice: () => {} });
const name = `path_stmt_${process.pid}`;
await admin.unsafe(`create database ${name}`);
await admin.unsafe(`alter database ${name} set log_statement = 'all'`);
const url = `postgres://postgres@127.0.0.1:5432/${name}`;
const server = await startServer({ DATABASE_URL: url }, 3491);
// executions.mjs's pipeline (in ──▶ a ──▶ b ──▶ c ──▶ out), unless DEF gives another definition as JSON
const chain = ['in', 'a', 'b', 'c', 'out'];
const definition = process.env.DEF
  ? JSON.parse(process.env.DEF)
  : {
      nodes: [
        { id: 'in', type: 'manual-trigger' },
        ...['a', 'b', 'c'].map((id) => ({ id, type: 'jsonata-transform', config: { expression: '$merge([$, {"seen": true}])' } })),
        { id: 'out', type: 'pipeline-output' },
      ],
      connections: chain.slice(1).map((target, i) => ({
        source: chain[i],
        source_port: i === 0 ? 'event' : 'output',
        target,
        target_port: target === 'out' ? 'value' : 'input',
      })),
    };
try {
  const p = await api(server.url, 'POST', '/api/pipelines', { name: 'count', definition });
  await api(server.url, 'POST', `/api/pipelines/${p.id}/deploy`);
  const body = { pipeline_id: p.id, inputs: { patient: 'p1' }, async: process.env.ASYNC === '1' };
  for (let i = 0; i < 20; i++) await api(server.url, 'POST', '/api/execute', body);
  await new Promise((r) => setTimeout(r, 1500));
  const from = fs.statSync(LOG).size;
  for (let i = 0; i < N; i++) await api(server.url, 'POST', '/api/execute', body);
  await new Promise((r) => setTimeout(r, 1500));
  const text = fs.readFileSync(LOG).subarray(from).toString();
  // the log's entries of this database (an entry's statement text runs on over the lines that follow it)
  const entries = text.split(/\n(?=\d{4}-\d\d-\d\d )/).filter((e) => new RegExp(`@${name} LOG:  (statement|execute)`).test(e));
  const lines = entries.map((e) => e.replace(/^.*?LOG:\s+/, '').replace(/\s+/g, ' '));
  const kinds = {};
  for (const l of lines) {
    const k = l.replace(/^execute [^:]*: /, '').slice(0, 120);
    kinds[k] = (kinds[k] ?? 0) + 1;
  }
  const own = lines.filter((l) => !/pgboss/.test(l)).length;
  console.log(
    `statements per execution: ${(own / N).toFixed(2)}, and pg-boss's own (timers) ${((lines.length - own) / N).toFixed(2)} (${lines.length} in all for ${N})`,
  );
  for (const [k, n] of Object.entries(kinds).sort((a, b) => b[1] - a[1])) console.log((n / N).toFixed(2), k);
} finally {
  await server.stop();
  await admin.unsafe(`drop database ${name} with (force)`);
  await admin.end();
}
