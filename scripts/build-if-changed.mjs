// `npm start` builds only when what the build reads has changed since the last build: a restart of an
// unchanged checkout starts in seconds instead of rebuilding for 35–40 s. The fingerprint is a SHA-256
// of the contents of every input file (sources, config, lockfile), kept beside the build it describes.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const distDir = path.join(root, process.env.CLINFLOW_DIST_DIR || '.next');
const stamp = path.join(distDir, 'clinflow-build-fingerprint');
const INPUTS = ['src', 'public', 'next.config.mjs', 'package-lock.json', 'tsconfig.json', 'postcss.config.mjs', 'drizzle', 'scripts/build-server.mjs'];

function* files(p) {
  if (!fs.existsSync(p)) return;
  if (fs.statSync(p).isFile()) return yield p;
  for (const entry of fs.readdirSync(p, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    yield* files(path.join(p, entry.name));
  }
}

function fingerprint() {
  const hash = createHash('sha256');
  for (const input of INPUTS) {
    for (const file of files(path.join(root, input))) {
      hash.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file)).update('\0');
    }
  }
  return hash.digest('hex');
}

const built =
  fs.existsSync(path.join(distDir, 'BUILD_ID')) &&
  fs.existsSync(path.join(distDir, 'clinflow', 'server.cjs')) &&
  fs.existsSync(stamp) &&
  fs.readFileSync(stamp, 'utf8') === fingerprint();
if (built && process.env.CLINFLOW_FORCE_BUILD !== '1') {
  console.log('Clinflow: sources unchanged since the last build, starting it (CLINFLOW_FORCE_BUILD=1 rebuilds).');
  process.exit(0);
}
const next = path.join(root, 'node_modules', '.bin', 'next');
const r = spawnSync(next, ['build'], { cwd: root, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
if (r.status !== 0) process.exit(r.status ?? 1);
const server = spawnSync(process.execPath, [path.join(root, 'scripts', 'build-server.mjs')], { cwd: root, stdio: 'inherit', env: process.env });
if (server.status !== 0) process.exit(server.status ?? 1);
// taken after the build, which may itself touch tsconfig.json
fs.writeFileSync(stamp, fingerprint());
