import { getRuntime } from '@/server/runtime';

/** Start-up of a server process; a database that cannot be opened ends the process with a clear message. */
export async function startServer(): Promise<void> {
  try {
    await getRuntime();
  } catch (e) {
    console.error(`\nClinflow cannot start: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  }
}
