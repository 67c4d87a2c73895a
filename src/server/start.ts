import { getRuntime } from '@/server/runtime';
import { logger } from '@/server/logger';

/**
 * Start-up of a server process: a database that cannot be opened ends the process with a clear message;
 * SIGTERM and SIGINT close the database cleanly (PGlite flushes and releases its folder) before exiting.
 */
export async function startServer(): Promise<void> {
  try {
    const rt = await getRuntime();
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      logger.info(`${signal}: closing the database`);
      rt.database
        .close()
        .catch((e) => logger.error('closing the database failed', { error: String(e) }))
        .finally(() => process.exit(0));
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  } catch (e) {
    console.error(`\nClinflow cannot start: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  }
}
