import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../../src/server/db/client';
import { migrateDatabase } from '../../src/server/db/migrate';

/**
 * A fresh in-memory PGlite runs initdb and then the migrations: seconds of CPU for each of the dozens of test files
 * that open one. The unit project's global setup (this file's default export) runs them once and keeps PGlite's
 * dumps in the temp folder, named after what they depend on (the migrations and the PGlite build); each test file
 * then opens its database from a dump: the same database, without running initdb and the migrations again.
 * No vitest import: src/server/testing.ts uses it, and so does a benchmark run outside vitest.
 */
type Which = 'empty' | 'migrated';

const root = path.resolve(import.meta.dirname, '../..');

function snapshotFile(which: Which): string {
  const hash = crypto.createHash('sha256');
  hash.update(JSON.parse(fs.readFileSync(path.join(root, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')).version);
  const folder = path.join(root, 'drizzle');
  for (const f of fs.readdirSync(folder, { recursive: true, encoding: 'utf8' }).sort()) {
    const file = path.join(folder, f);
    if (fs.statSync(file).isFile()) hash.update(f).update(fs.readFileSync(file));
  }
  return path.join(os.tmpdir(), `clinflow-pglite-${hash.digest('hex').slice(0, 16)}-${which}.tar`);
}

/** A fresh in-memory PGlite (with the migrations applied unless `empty`), from its dump when there is one. */
export async function freshPglite(which: Which = 'migrated'): Promise<Database> {
  const file = snapshotFile(which);
  if (fs.existsSync(file)) return openDatabase({ dataDir: 'memory://', loadDataDir: new Blob([fs.readFileSync(file)]) });
  const database = await openDatabase({ dataDir: 'memory://' });
  if (which === 'migrated') await migrateDatabase(database);
  return database;
}

async function writeSnapshot(which: Which): Promise<void> {
  const file = snapshotFile(which);
  if (fs.existsSync(file)) return;
  const database = await freshPglite(which);
  try {
    const dump = await database.pglite!.dumpDataDir('none');
    const tmp = `${file}.${process.pid}`;
    fs.writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(tmp, file); // whole or not at all, for runs starting side by side
  } finally {
    await database.close();
  }
}

export default async function setup() {
  await writeSnapshot('empty');
  await writeSnapshot('migrated');
}
