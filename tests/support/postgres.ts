import postgres from 'postgres';

/** The machine's Postgres (trust auth); TEST_POSTGRES_URL overrides. */
export const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Creates a fresh database for one test run and returns its URL, so runs never see each other's rows. */
export async function createTestDatabase(label: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `clinflow_${label}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const a = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

/**
 * A Postgres cluster of the test's own (pg_createcluster, on its own port, trust auth), for tests that stop and
 * start the database: never the machine's.
 */
export async function createThrowawayCluster(port: number): Promise<{ url: string; stop(): Promise<void>; start(): Promise<void>; destroy(): Promise<void> }> {
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  const { readdirSync } = await import('node:fs');
  const run = (cmd: string, args: string[]) => promisify(execFile)(cmd, args).then(() => undefined);
  const version = readdirSync('/usr/lib/postgresql').sort().at(-1)!;
  const name = `clinflow_fault_${process.pid}`;
  await run('pg_createcluster', [version, name, '-p', String(port), '--start', '--', '--auth-host=trust', '--auth-local=trust']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => run('pg_ctlcluster', [version, name, 'stop', '-m', 'fast']),
    start: () => run('pg_ctlcluster', [version, name, 'start']),
    destroy: () => run('pg_dropcluster', [version, name, '--stop']),
  };
}
