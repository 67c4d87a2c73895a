// What the suite needs from the machine, checked before any test runs (`npm test`'s pretest). What is missing is
// installed when it can be (as root, with apt-get); otherwise this stops at once with the one command to run.
// Run by Node itself (type stripping), so only erasable TypeScript and no imports of the project's code.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** One thing the suite needs, the Debian package that brings it, and who needs it. */
export interface Need {
  what: string;
  pkg: string;
  usedBy: string;
  /** A command looked up on PATH, or an absolute path. */
  command: string;
}

export const NEEDS: Need[] = [
  { what: 'Chromium at /usr/bin/chromium', command: '/usr/bin/chromium', pkg: 'chromium', usedBy: 'the browser tests (playwright.config.ts)' },
  { what: 'mllp_send', command: 'mllp_send', pkg: 'python3-hl7', usedBy: 'the MLLP listener and feed tests (tests/rest/mllp, feed)' },
  { what: 'openssl', command: 'openssl', pkg: 'openssl', usedBy: 'the TLS connector test (tests/rest/connectors)' },
  { what: 'pgrep', command: 'pgrep', pkg: 'procps', usedBy: 'the cluster test (tests/rest/cluster)' },
  { what: 'pg_createcluster', command: 'pg_createcluster', pkg: 'postgresql', usedBy: 'the database restart test, which makes a Postgres of its own' },
  { what: 'pg_ctlcluster', command: 'pg_ctlcluster', pkg: 'postgresql', usedBy: 'the database restart test' },
  { what: 'pg_dropcluster', command: 'pg_dropcluster', pkg: 'postgresql', usedBy: 'the database restart test' },
];

/** The executable a command resolves to on `PATH` (or the absolute path itself), or null. */
export function findCommand(command: string, PATH = process.env.PATH ?? ''): string | null {
  const candidates = path.isAbsolute(command)
    ? [command]
    : PATH.split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, command));
  for (const file of candidates) {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return null;
}

/** The needs whose command is not found, and the Postgres server binaries when no version is installed. */
export function missingNeeds(PATH = process.env.PATH ?? '', postgresLib = '/usr/lib/postgresql'): Need[] {
  const missing = NEEDS.filter((n) => !findCommand(n.command, PATH));
  if (!postgresServerInstalled(postgresLib) && !missing.some((n) => n.pkg === 'postgresql')) {
    missing.push({ what: 'a Postgres server', command: 'postgres', pkg: 'postgresql', usedBy: 'the REST and service tests on Postgres' });
  }
  return missing;
}

function postgresServerInstalled(postgresLib: string): boolean {
  try {
    return fs.readdirSync(postgresLib).some((v) => fs.existsSync(path.join(postgresLib, v, 'bin', 'postgres')));
  } catch {
    return false;
  }
}

/** The one command that brings the missing packages, with sudo unless already root. */
export function installCommand(missing: Need[], root = process.getuid?.() === 0): string {
  const pkgs = [...new Set(missing.map((n) => n.pkg))];
  return `${root ? '' : 'sudo '}apt-get install -y ${pkgs.join(' ')}`;
}

export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Connects to the test Postgres; on a missing database, makes it. Returns null when it answers, else why not. */
export async function reachPostgres(url = TEST_POSTGRES_URL): Promise<{ code?: string; message: string } | null> {
  const { default: postgres } = await import('postgres');
  const attempt = async (u: string) => {
    const sql = postgres(u, { max: 1, connect_timeout: 5, onnotice: () => {} });
    try {
      await sql`select 1`;
      return null;
    } catch (e) {
      const err = e as { code?: string; message: string };
      return { code: err.code, message: err.message };
    } finally {
      await sql.end({ timeout: 1 });
    }
  };
  const first = await attempt(url);
  if (first?.code !== '3D000') return first; // 3D000: the database does not exist
  const admin = new URL(url);
  const name = decodeURIComponent(admin.pathname.slice(1));
  admin.pathname = '/postgres';
  const sql = postgres(admin.toString(), { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    await sql.unsafe(`create database "${name.replace(/"/g, '""')}"`);
  } catch (e) {
    return { message: `database ${name} does not exist and could not be made: ${(e as Error).message}` };
  } finally {
    await sql.end({ timeout: 1 });
  }
  return attempt(url);
}

const local = (url: string) => ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);

function sh(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): boolean {
  console.log(`test-prereqs: ${cmd} ${args.join(' ')}`);
  return spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], env }).status === 0;
}

/** The machine's Postgres clusters, as [version, name] (Debian's /etc/postgresql/<version>/<name>). */
function listClusters(): [string, string][] {
  try {
    return fs.readdirSync('/etc/postgresql').flatMap((v) => fs.readdirSync(path.join('/etc/postgresql', v)).map((c): [string, string] => [v, c]));
  } catch {
    return [];
  }
}

function serverVersion(): string {
  try {
    return (
      fs
        .readdirSync('/usr/lib/postgresql')
        .sort((a, b) => Number(a) - Number(b))
        .at(-1) ?? '15'
    );
  } catch {
    return '15';
  }
}

/** Starts the machine's main Postgres cluster when it is down (as .ci/run did); never the tests' throwaway ones. */
function startClusters(): void {
  if (!findCommand('pg_ctlcluster')) return;
  for (const [v, c] of listClusters()) if (c === 'main') sh('pg_ctlcluster', ['--skip-systemctl-redirect', v, c, 'start']);
}

/**
 * Installs with apt-get. A Postgres installed here is the suite's own: its first cluster is made with trust auth
 * (what the tests connect with), through a createcluster.d file present only while apt-get runs.
 */
function aptInstall(missing: Need[]): boolean {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const pkgs = [...new Set(missing.map((n) => n.pkg))];
  const trustConf = '/etc/postgresql-common/createcluster.d/clinflow-tests.conf';
  const freshPostgres = pkgs.includes('postgresql') && !fs.existsSync('/etc/postgresql');
  if (!sh('apt-get', ['update', '-qq'], env)) return false;
  try {
    if (freshPostgres) {
      fs.mkdirSync(path.dirname(trustConf), { recursive: true });
      fs.writeFileSync(trustConf, "initdb_options = '--auth-local=trust --auth-host=trust'\n");
    }
    return sh('apt-get', ['install', '-y', '-qq', ...pkgs], env);
  } finally {
    if (freshPostgres) fs.rmSync(trustConf, { force: true });
  }
}

function stop(lines: string[]): never {
  console.error(`\nThe tests cannot run on this machine yet:\n${lines.map((l) => `  ${l}`).join('\n')}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  let missing = missingNeeds();
  const root = process.getuid?.() === 0;
  if (missing.length > 0) {
    if (root && findCommand('apt-get')) {
      console.log(`test-prereqs: installing ${missing.map((n) => n.what).join(', ')}`);
      aptInstall(missing);
      missing = missingNeeds();
    }
    if (missing.length > 0) {
      stop([...missing.map((n) => `missing ${n.what} (Debian package ${n.pkg}), needed by ${n.usedBy}`), '', `Run:  ${installCommand(missing, root)}`]);
    }
  }
  let pg = await reachPostgres();
  if (pg && local(TEST_POSTGRES_URL)) {
    startClusters();
    for (let i = 0; i < 20 && pg; i++) {
      pg = await reachPostgres();
      if (pg) await new Promise((r) => setTimeout(r, 500));
    }
  }
  if (pg) {
    const auth = pg.code === '28P01' || pg.code === '28000';
    const clusters = listClusters();
    const run = !local(TEST_POSTGRES_URL)
      ? 'set TEST_POSTGRES_URL to a Postgres the tests can reach'
      : auth
        ? `add \`host all postgres 127.0.0.1/32 trust\` to pg_hba.conf (or set TEST_POSTGRES_URL)`
        : clusters.some(([, c]) => c === 'main')
          ? `${root ? '' : 'sudo '}pg_ctlcluster --skip-systemctl-redirect ${clusters.find(([, c]) => c === 'main')!.join(' ')} start`
          : `${root ? '' : 'sudo '}pg_createcluster --start ${serverVersion()} main -- --auth-local=trust --auth-host=trust && createdb -h 127.0.0.1 -U postgres test`;
    stop([
      `Postgres at ${TEST_POSTGRES_URL} does not answer: ${pg.message}`,
      'The tests need a Postgres there (user postgres, trust auth, database test), or TEST_POSTGRES_URL pointing at one.',
      '',
      `Run:  ${run}`,
    ]);
  }
}

if (import.meta.main) await main();
