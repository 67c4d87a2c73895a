// The whole suite, as CI runs it: build and type-check the app, unit + service tests, REST contract tests against
// started servers (PGlite and the machine's Postgres), browser tests in Chromium.
//
// Steps that do not need each other run at the same time (on a 2-core machine each of them leaves a core idle for
// part of its time: tsc is single-threaded, the tests wait on servers, timers, sockets and the browser):
//   build (next build, then the server bundle) ─┬─ typecheck (reads the build's route types)
//                                                ├─ playwright
//   unit (needs no build) ───────────────────────┴─ rest (REST contract tests: after the build and the unit tests)
// A failed build or typecheck stops every step and fails the run; a failed test step does not stop the others.
// That order is opt-in (CLINFLOW_TEST_PARALLEL=1) until it has passed on a quiet machine; by default the steps run one
// after another, the order CI has always passed with. Measured one by one on 2026-11-28 (2 cores, beside other
// sessions' work, load average 3.5–7): build ~60 s, typecheck ~30 s, unit ~155 s (two files at a time), REST
// 304–356 s (three files at a time, vitest.config.ts), Playwright 325–427 s (one browser); the whole run on a clean
// clone that day: 1,107 s (build 173, typecheck 58, unit 125, REST 280, Playwright 471) against 1,265 s before, beside
// other work. On a quiet machine (2026-11-28 19:24, `bash .ci/run` on a clean clone, nothing else running): 614 s
// (build 36, typecheck 16, unit 104, REST 210, Playwright 248), 10 min 44 s with npm install and apt; CI's run 804 s.
// Each step's lines are prefixed with its name; each step's time is printed when it ends and all of them at the end,
// so a slow run shows where it went.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

const root = path.resolve(import.meta.dirname, '..');
// not test-results/: Playwright empties that folder when it starts
const results = path.join(root, '.test-reports');
fs.mkdirSync(results, { recursive: true });
// Tests build into their own folder, so a running `npm start` (.next) is left alone.
const env = { ...process.env, CLINFLOW_DIST_DIR: '.next-test', NEXT_TELEMETRY_DISABLED: '1' };
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const began = performance.now();
const seconds = (ms) => Math.round(ms / 1000);
/** Every step that ran: its name, when it started (from the start of the run), how long it took, how it ended. */
const timings = [];
const children = new Set();
/**
 * The last lines of each step's output, without the app's JSON log lines: a step that fails is told again at the very
 * end, so a log that keeps only its tail (a CI summary) still shows why (a worker that crashed, an unhandled error).
 */
const tails = new Map();
const TAIL = 80;
const keepTail = (label, line) => {
  if (line.startsWith('{"time"')) return;
  const tail = tails.get(label) ?? [];
  tail.push(line);
  if (tail.length > TAIL) tail.shift();
  tails.set(label, tail);
};

/** Runs one command; with `prefix`, its output lines carry the step's name (for steps sharing the terminal). */
function run(label, cmd, args, { extraEnv = {}, prefix = false } = {}) {
  console.log(`\n=== ${label}: ${cmd} ${args.join(' ')}`);
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', prefix ? 'pipe' : 'inherit', prefix ? 'pipe' : 'inherit'], env: { ...env, ...extraEnv } });
    children.add(child);
    if (prefix) {
      for (const [stream, out] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ]) {
        readline.createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
          out.write(`[${label}] ${line}\n`);
          keepTail(label, line);
        });
      }
    }
    const finish = (status) => {
      children.delete(child);
      const ms = performance.now() - started;
      timings.push({ label, at: seconds(started - began), took: seconds(ms), status });
      // each step's time in the log: where a slow run spent it
      console.log(`=== ${label}: ${status === 0 ? 'done' : 'failed'} in ${seconds(ms)} s`);
      resolve(status);
    };
    child.on('error', (e) => {
      console.error(`=== ${label}: ${e.message}`);
      finish(1);
    });
    child.on('exit', (code, signal) => finish(code ?? (signal ? 1 : 0)));
  });
}

/** Runs steps one after the other; resolves with the first failure's status, or 0. */
async function sequence(...steps) {
  for (const step of steps) {
    const status = await step();
    if (status !== 0) return status;
  }
  return 0;
}

// Ctrl-C or a CI timeout: stop what is running rather than leave servers and browsers behind.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exit(130);
  });
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(path.join(results, file), 'utf8'));
  } catch {
    return null;
  }
}

function printTimings() {
  console.log('\nsteps (start → took, seconds from the start of the run):');
  for (const t of timings.sort((a, b) => a.at - b.at)) {
    console.log(`  ${t.label.padEnd(18)} ${String(t.at).padStart(5)} → ${String(t.took).padStart(4)} s${t.status === 0 ? '' : '  failed'}`);
  }
  console.log(`  ${'total'.padEnd(18)} ${seconds(performance.now() - began)} s`);
}

for (const f of ['vitest.json', 'vitest-unit.json', 'vitest-rest.json', 'playwright.json']) fs.rmSync(path.join(results, f), { force: true });

const vitest = (report, ...projects) => [
  'run',
  ...projects.flatMap((p) => ['--project', p]),
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=.test-reports/vitest-${report}.json`,
];
/** A failed typecheck or build: stop every step still running and fail the run. */
function stopAll(step) {
  console.error(`\n${step} failed: stopping the steps still running`);
  for (const child of children) child.kill('SIGTERM');
  printTimings();
  process.exit(1);
}

const freshBuild = !fs.existsSync(path.join(root, '.next-test'));
const built = sequence(
  // no build folder yet (a fresh clone, CI): Turbopack's build cache would be written for no later build to read
  () => run('build', bin('next'), ['build'], { prefix: true, extraEnv: freshBuild ? { CLINFLOW_BUILD_CACHE: '0' } : {} }),
  () => run('build the server', process.execPath, [path.join(root, 'scripts', 'build-server.mjs')], { prefix: true }),
).then((status) => (status === 0 ? 0 : stopAll('the build')));
// by default one step after another (build, typecheck, unit, REST, Playwright); CLINFLOW_TEST_PARALLEL=1 side by side
const serial = process.env.CLINFLOW_TEST_PARALLEL !== '1';
// after the build: its route types are part of what tsc checks (.next-test/types, tsconfig.json)
const typecheck = built.then(() => run('typecheck', bin('tsc'), ['--noEmit'], { prefix: true })).then((status) => (status === 0 ? 0 : stopAll('typecheck')));
// the unit and service tests need no build
const unit = (serial ? typecheck : Promise.resolve()).then(() => run('unit', bin('vitest'), vitest('unit', 'unit', 'unit-isolated'), { prefix: true }));
// after the unit tests, so that at most two steps of tests share the machine
const rest = Promise.all([built, unit]).then(() => run('rest', bin('vitest'), vitest('rest', 'rest'), { prefix: true }));
const playwright = (serial ? rest : built).then(() =>
  run('playwright', bin('playwright'), ['test', '--reporter=list,json'], {
    prefix: true,
    extraEnv: { PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(results, 'playwright.json') },
  }),
);

const failures = [];
const statuses = { unit: await unit, rest: await rest, playwright: await playwright };
await typecheck;
for (const [step, status] of Object.entries(statuses)) if (status !== 0) failures.push(step);
for (const step of failures) console.error(`\n=== the last lines of ${step}, which failed:\n${(tails.get(step) ?? []).join('\n')}`);
printTimings();

const v = [readJson('vitest-unit.json'), readJson('vitest-rest.json')];
const p = readJson('playwright.json');
const sum = (key) => v.reduce((n, r) => n + (r?.[key] ?? 0), 0);
const passed = sum('numPassedTests') + (p?.stats?.expected ?? 0);
const failed = sum('numFailedTests') + (p?.stats?.unexpected ?? 0) + (p?.stats?.flaky ?? 0);
const skipped = sum('numPendingTests') + (p?.stats?.skipped ?? 0);
if (failures.length > 0 && failed === 0) {
  console.error(`\n${failures.join(' and ')} failed before reporting results`);
  console.log(`\n${passed} passed, 1 failed`);
  process.exit(1);
}
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failures.length > 0 || failed > 0 || passed === 0 ? 1 : 0);
