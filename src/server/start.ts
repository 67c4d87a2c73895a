import { getRuntime } from '@/server/runtime';

/**
 * Start-up of a server process: a database that cannot be opened ends the process with a clear message.
 * Shutdown is Next's: on SIGTERM it stops accepting connections, drains requests and exits (143); the
 * PGlite lock is released on exit, and PGlite's files are written through, so nothing committed is lost.
 */
export async function startServer(): Promise<void> {
  try {
    await getRuntime();
  } catch (e) {
    console.error(`\nClinflow cannot start: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  }
}
