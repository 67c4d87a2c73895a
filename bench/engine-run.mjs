// Runs bench/engine.ts as production runs the engine: bundled by esbuild (what `next build` gives the
// server is compiled alike), not through tsx, whose keep-names transform wraps every function and closure
// and would slow both sides. Both node variants, one after the other.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const outfile = path.join(root, 'node_modules/.cache/clinflow-bench/engine.mjs');
await build({
  entryPoints: [path.join(root, 'bench/engine.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  // the QuickJS sandbox loads its WebAssembly from its own package folder
  external: ['quickjs-emscripten*', '@jitl/*'],
  banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
  outfile,
  logLevel: 'error',
});
for (const node of ['noop', 'jsonata-transform']) {
  const r = spawnSync(process.execPath, [outfile], { stdio: 'inherit', env: { ...process.env, BENCH_NODE: node } });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
