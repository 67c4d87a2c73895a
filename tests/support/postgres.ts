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
