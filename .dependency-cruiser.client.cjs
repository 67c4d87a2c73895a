// What the browser loads, drawn from the imports that survive compilation (type-only ones vanish): the UI and the
// node registry (isomorphic: palette, ports, run dialog) must not reach how nodes run (sandboxes, drivers, sockets),
// which src/engine/nodes/implementations.ts joins on the server. scripts/architecture.test.ts holds it.
module.exports = {
  forbidden: [
    {
      name: 'browser-loads-no-execute-code',
      severity: 'error',
      from: { path: '^src/(features|components)/|^src/engine/nodes/(registry|descriptors)\\.ts$' },
      to: { path: '\\.execute\\.ts$|^src/engine/nodes/(implementations|index)\\.ts$', reachable: true },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: false,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.tsx?$' },
  },
};
