// The whole suite, as CI runs it: build the app once, then unit + service tests, REST contract tests
// against started servers (PGlite and the machine's Postgres), then the browser tests in Chromium.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
// not test-results/: Playwright empties that folder when it starts
const results = path.join(root, '.test-reports');
fs.mkdirSync(results, { recursive: true });
// Tests build into their own folder, so a running `npm start` (.next) is left alone.
const env = { ...process.env, CLINFLOW_DIST_DIR: '.next-test', NEXT_TELEMETRY_DISABLED: '1' };

function run(label, cmd, args, extraEnv = {}) {
  console.log(`\n=== ${label}: ${cmd} ${args.join(' ')}`);
  const started = performance.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...env, ...extraEnv } });
  // each step's time in the log: where a slow run spent it
  console.log(`=== ${label}: ${r.status === 0 ? 'done' : 'failed'} in ${Math.round((performance.now() - started) / 1000)} s`);
  return r.status ?? 1;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(path.join(results, file), 'utf8'));
  } catch {
    return null;
  }
}

const bin = (name) => path.join(root, 'node_modules', '.bin', name);

if (run('typecheck', bin('tsc'), ['--noEmit']) !== 0) process.exit(1);
if (run('build', bin('next'), ['build']) !== 0) process.exit(1);
if (run('build the server', process.execPath, [path.join(root, 'scripts', 'build-server.mjs')]) !== 0) process.exit(1);

const failures = [];
if (run('vitest', bin('vitest'), ['run', '--reporter=default', '--reporter=json', '--outputFile.json=.test-reports/vitest.json']) !== 0) {
  failures.push('vitest');
}
if (run('playwright', bin('playwright'), ['test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(results, 'playwright.json') }) !== 0) {
  failures.push('playwright');
}

const v = readJson('vitest.json');
const p = readJson('playwright.json');
const passed = (v?.numPassedTests ?? 0) + (p?.stats?.expected ?? 0);
const failed = (v?.numFailedTests ?? 0) + (p?.stats?.unexpected ?? 0) + (p?.stats?.flaky ?? 0);
const skipped = (v?.numPendingTests ?? 0) + (p?.stats?.skipped ?? 0);
if (failures.length > 0 && failed === 0) {
  console.error(`\n${failures.join(' and ')} failed before reporting results`);
  console.log(`\n${passed} passed, 1 failed`);
  process.exit(1);
}
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failures.length > 0 || failed > 0 || passed === 0 ? 1 : 0);
