// Bundles the server (`npm start`) and the queue worker (`npm run worker`) with esbuild into the build folder,
// beside Next's build: production runs compiled code, not TypeScript through tsx. Packages stay in
// node_modules (loaded by Node as they are, one copy shared with Next's server bundle); our code is bundled.
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const distDir = path.join(root, process.env.CLINFLOW_DIST_DIR || '.next');

await build({
  entryPoints: {
    server: path.join(root, 'src/server/http-server/main.ts'),
    worker: path.join(root, 'src/server/worker-main.ts'),
  },
  outdir: path.join(distDir, 'clinflow'),
  // CommonJS: Node resolves packages' deep imports (`ajv/dist/2019`) as their authors expect, and
  // require() loads the ESM-only ones (Node ≥ 22)
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node24',
  packages: 'external',
  tsconfig: path.join(root, 'tsconfig.json'),
  sourcemap: 'linked',
  logLevel: 'warning',
});
