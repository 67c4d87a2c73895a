/**
 * Runs once when the server starts: opens the database, applies migrations and bootstraps the first
 * organization, so a locked PGlite folder or an unreachable Postgres stops the start with a clear message
 * instead of failing the first request.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { startServer } = await import('@/server/start');
  await startServer();
}
