// `npm start` and `npm run worker`: runs the bundled server (or queue worker) from the build folder
// (CLINFLOW_DIST_DIR, .next by default), which scripts/build-server.mjs wrote beside Next's build.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const which = process.argv[2] === 'worker' ? 'worker' : 'server';
const bundle = path.join(root, process.env.CLINFLOW_DIST_DIR || '.next', 'clinflow', `${which}.cjs`);
if (!fs.existsSync(bundle)) {
  console.error(`No build at ${path.relative(root, bundle)}: run \`npm run build\` first (\`npm start\` builds when needed).`);
  process.exit(1);
}
process.chdir(root);
createRequire(import.meta.url)(bundle);
