// Runs bench/hl7v2-parse.ts as production runs the library: bundled by esbuild (what `next build` gives
// the server is compiled alike), not through tsx, whose keep-names transform wraps every function.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const outfile = path.join(root, 'node_modules/.cache/clinflow-bench/hl7v2-parse.mjs');
await build({
  entryPoints: [path.join(root, 'bench/hl7v2-parse.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  outfile,
  logLevel: 'error',
});
const r = spawnSync(process.execPath, [outfile], { stdio: 'inherit', env: { ...process.env, BENCH_ROOT: root } });
process.exit(r.status ?? 1);
