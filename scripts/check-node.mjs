// Fails fast when npm scripts would silently run on the machine's Node 20 instead of the pinned Node 24
// (the `node` package's preinstall did not run, so node_modules/.bin/node is missing).
const major = Number(process.versions.node.split('.')[0]);
if (major !== 24) {
  console.error(
    `Clinflow needs Node 24 (pinned by the "node" package in package.json); this is Node ${process.versions.node}.\n` +
      'Run `npm install` (it installs node_modules/.bin/node) and start scripts through npm or npx.',
  );
  process.exit(1);
}
