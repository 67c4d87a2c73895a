// Issue 27's retention target: the database size of a feed under a 7-day payload retention with the pruner running,
// over a simulated clock. Real node records of the ADT → FHIR feed (every ADT sample run once through the real pipeline
// by the execution service) are copied in bulk — BENCH_MESSAGES runs spread evenly over BENCH_DAYS simulated days —
// and after each simulated day the pruner makes its pass with the clock at that day's end, then VACUUM runs (standing
// in for autovacuum, which over a real day would run many times: see bench/README.md). Prints the database size after
// each day, the growth per day before and after the payload window, and the size against what the same runs would
// take unpruned (the first day's growth times the days), all from this one run.
//   npx node bench/bundled.mjs retention   (BENCH_MESSAGES=1000000 BENCH_DAYS=30 BENCH_PAYLOAD_DAYS=7 BENCH_EXECUTION_DAYS=365)
// Postgres at BENCH_POSTGRES_URL (default the machine's); its own database, dropped at the end.
import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { openDatabase } from '@/server/db/client';
import { migrateDatabase } from '@/server/db/migrate';
import { createRuntime } from '@/server/runtime';
import { createCaller } from '@/server/api/root';
import { createContext } from '@/server/api/trpc';
import { organizations } from '@/server/db/schema';
import { prune } from '@/server/services/retention/prune';

const root = path.resolve(process.env.BENCH_ROOT ?? process.cwd());
const N = Number(process.env.BENCH_MESSAGES ?? 100_000);
const DAYS = Number(process.env.BENCH_DAYS ?? 30);
const PAYLOAD_DAYS = Number(process.env.BENCH_PAYLOAD_DAYS ?? 7);
const EXECUTION_DAYS = Number(process.env.BENCH_EXECUTION_DAYS ?? 365);
/** BENCH_VACUUM=0 leaves the dead rows to autovacuum alone (which a simulated day is far too short for). */
const VACUUM = process.env.BENCH_VACUUM !== '0';
/** Runs per insert statement. */
const CHUNK = 2_000;
const ADMIN = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const NAME = process.env.BENCH_DB_NAME ?? `clinflow_bench_retention_${process.pid}`;
const DIR = path.join(root, '../shared/data/hl7v2/messages');
const ADT = fs
  .readdirSync(DIR)
  .filter((f) => f.startsWith('ADT'))
  .sort()
  .map((f) => fs.readFileSync(path.join(DIR, f), 'utf8'));
const DAY = 86_400_000;

/* in (manual-trigger, message) ──▶ parse ──▶ fhir (hl7v2-to-fhir) ──▶ check (fhir-validate) ──valid──▶ out */
const definition = {
  nodes: [
    { id: 'in', type: 'manual-trigger', config: { fields: { message: 'text' } }, position: { x: 0, y: 0 } },
    { id: 'parse', type: 'hl7v2-parse', config: {}, position: { x: 0, y: 0 } },
    { id: 'fhir', type: 'hl7v2-to-fhir', config: {}, position: { x: 0, y: 0 } },
    { id: 'check', type: 'fhir-validate', config: { expect: 'bundle' }, position: { x: 0, y: 0 } },
    { id: 'out', type: 'pipeline-output', config: { key: 'bundle' }, position: { x: 0, y: 0 } },
  ],
  connections: [
    { source: 'in', source_port: 'message', target: 'parse', target_port: 'text' },
    { source: 'parse', source_port: 'message', target: 'fhir', target_port: 'message' },
    { source: 'fhir', source_port: 'bundle', target: 'check', target_port: 'resource' },
    { source: 'check', source_port: 'valid', target: 'out', target_port: 'value' },
  ],
};

const mb = (b: number) => (b / 1e6).toFixed(1);

const admin = postgres(ADMIN, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database ${NAME}`);
const url = new URL(ADMIN);
url.pathname = `/${NAME}`;
const database = await openDatabase({ url: url.toString(), max: 2 });
const raw = postgres(url.toString(), { max: 1, onnotice: () => {} });
try {
  await migrateDatabase(database, url.toString());
  const rt = await createRuntime(database, { rateLimitPerWindow: 1e9 });
  await database.db.insert(organizations).values({ id: 'bench-retention', name: 'bench' });
  const a = createCaller(createContext(rt, { kind: 'api-key', orgId: 'bench-retention', scopes: ['admin'], keyId: '00000000-0000-4000-8000-000000000001' }));
  // the templates: each ADT sample through the real pipeline once, stored by the execution service as any run is
  const templates = await a.pipelines.create({ name: 'templates', description: '', definition });
  for (const message of ADT) await a.executions.execute({ pipeline_id: templates.id, inputs: { message }, test_mode: true, async: false });
  const feed = await a.pipelines.create({ name: 'ADT feed', description: '', definition });
  await raw`update pipelines set data_settings = ${raw.json({ payload_days: PAYLOAD_DAYS, execution_days: EXECUTION_DAYS })} where id = ${feed.id}`;
  await raw`create table bench_t as select row_number() over (order by created_at) - 1 as k, * from executions where pipeline_id = ${templates.id}`;
  await raw`create table bench_tn as select t.k, n.* from execution_nodes n join bench_t t on t.id = n.execution_id`;
  const T = (await raw<{ k: number }[]>`select count(*)::int as k from bench_t`)[0]!.k;
  // the node payloads as stored: JSON, or deflated (stored-payloads.ts)
  const [tpl] = await raw<{ bytes: number }[]>`select (sum(octet_length(n.inputs::text) + octet_length(n.outputs::text)
    + coalesce(octet_length(n.payloads_z), 0)) / ${T})::int as bytes from bench_tn n`;
  console.log(`retention bench: ${N.toLocaleString()} ADT → FHIR runs over ${DAYS} simulated days (${Math.round(N / DAYS).toLocaleString()}/day),`);
  const vacuum = VACUUM ? 'VACUUM after each day' : 'autovacuum only';
  console.log(
    `  payload_days ${PAYLOAD_DAYS}, execution_days ${EXECUTION_DAYS}, ${vacuum}; ${T} template runs ` +
      `(real records, ${tpl!.bytes} bytes of node payloads a run as stored)`,
  );

  const start = Date.now() - DAYS * DAY;
  const perDay = Math.round(N / DAYS);
  const sizes: number[] = [];
  let inserted = 0;
  const t0 = performance.now();
  let pruneMs = 0;
  for (let day = 0; day < DAYS; day++) {
    const dayStart = start + day * DAY;
    for (let done = 0; done < perDay; done += CHUNK) {
      const n = Math.min(CHUNK, perDay - done);
      // the runs of this chunk, their created_at spread over the day, each a copy of a template with its node records
      await raw`with g as (
          select gen_random_uuid() as id, (${inserted} + i) % ${T} as k,
            to_timestamp((${dayStart} + (${done} + i)::float8 * ${DAY} / ${perDay}) / 1000.0) as at
          from generate_series(0, ${n - 1}) i),
        e as (insert into executions (id, org_id, pipeline_id, pipeline_version, status, trigger, inputs, inputs_z, outputs, created_at, started_at,
            finished_at, duration_ms, payloads)
          select g.id, t.org_id, ${feed.id}, 1, 'completed', 'mllp', t.inputs, t.inputs_z, t.outputs, g.at, g.at, g.at + interval '40 ms', 40, 'kept'
          from g join bench_t t on t.k = g.k returning id)
        insert into execution_nodes (execution_id, node_id, node_type, status, inputs, outputs, payloads_z, logs, error, attempts, started_at,
          finished_at, duration_ms, emit, reason, refs)
        select g.id, n.node_id, n.node_type, n.status, n.inputs, n.outputs, n.payloads_z, n.logs, n.error, n.attempts, g.at, g.at, n.duration_ms,
          n.emit, n.reason, n.refs
        from g join bench_tn n on n.k = g.k`;
      inserted += n;
    }
    const p0 = performance.now();
    const r = await prune(database.db, { now: new Date(dayStart + DAY), restRatio: 0, budgetMs: 3_600_000, batchSize: 500 });
    pruneMs += performance.now() - p0;
    if (VACUUM) await raw`vacuum executions, execution_nodes`;
    const [s] = await raw<{ db: number; e: number; n: number }[]>`select pg_database_size(current_database())::float8 as db,
      pg_total_relation_size('executions')::float8 as e, pg_total_relation_size('execution_nodes')::float8 as n`;
    sizes.push(s!.db);
    console.log(
      `  day ${String(day + 1).padStart(2)}: ${inserted.toLocaleString().padStart(9)} runs, database ${mb(s!.db).padStart(8)} MB ` +
        `(executions ${mb(s!.e)}, node records ${mb(s!.n)}); pruner: ${r.payloads_pruned} payloads, ${r.executions_deleted} runs, ` +
        `${mb(r.bytes_freed)} MB in ${Math.round(performance.now() - p0)} ms`,
    );
  }
  // a day's growth with every payload kept, measured on day 2 (day 1 also holds the empty database)
  const first = sizes[1]! - sizes[0]!;
  const growth = (from: number, to: number) => (sizes[to]! - sizes[from]!) / (to - from);
  // the pruner's first payloads go at the end of day PAYLOAD_DAYS + 1
  const w = Math.min(PAYLOAD_DAYS, DAYS - 1);
  const before = growth(0, Math.max(1, w - 1));
  const after = DAYS - 1 > w ? growth(w, DAYS - 1) : NaN;
  const unpruned = sizes[0]! + first * (DAYS - 1);
  console.log(`  growth per day: ${mb(before)} MB within the payload window, ${mb(after)} MB after it (ratio ${(after / before).toFixed(3)})`);
  console.log(
    `  final ${mb(sizes.at(-1)!)} MB for ${inserted.toLocaleString()} runs; unpruned they would take ~${mb(unpruned)} MB ` +
      `(ratio ${(sizes.at(-1)! / unpruned).toFixed(3)}); inserting and pruning took ${Math.round((performance.now() - t0) / 1000)} s, ` +
      `the pruner ${Math.round(pruneMs / 1000)} s of it`,
  );
} catch (e) {
  console.error('retention bench failed:', e);
  process.exitCode = 1;
} finally {
  await raw.end();
  await database.close();
  await admin.unsafe(`drop database if exists ${NAME} with (force)`);
  await admin.end();
}
// the runtime's timers (rate-limit cleanup) would keep the process alive
process.exit();
