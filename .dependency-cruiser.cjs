// The house drawn from the imports (DESIGN.md §4; issue 29): app → features → components → server → engine →
// clinical, shared at the bottom; services know no transport; auth knows no services; no loop across files
// other than through type-only imports. `npx depcruise src` checks it; scripts/architecture.test.ts holds it.
const below = (name, from, forbidden) => ({
  name,
  severity: 'error',
  from: { path: from },
  to: { path: forbidden, dependencyTypesNot: ['type-only'] },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    below('shared-is-the-floor', '^src/shared/', '^src/(clinical|engine|server|components|features|app|trpc)/'),
    below('clinical-knows-no-engine', '^src/clinical/', '^src/(engine|server|components|features|app|trpc)/'),
    below('engine-knows-no-server', '^src/engine/', '^src/(server|components|features|app|trpc)/'),
    below('server-knows-no-ui', '^src/server/', '^src/(components|features|app)/'),
    below('components-know-no-features', '^src/components/', '^src/(features|app)/'),
    below('features-know-no-routes', '^src/features/', '^src/app/'),
    below('services-know-no-transport', '^src/server/services/', '^src/server/api/|^src/trpc/|^node_modules/next/'),
    below('auth-knows-no-services', '^src/server/auth/', '^src/server/services/'),
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    // test code (issue 29, item 8 moves it out of src/)
    exclude: { path: '\\.test\\.tsx?$' },
  },
};
