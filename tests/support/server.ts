import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/** The bundled server or queue worker of the build under test (scripts/build-server.mjs). */
export function builtProgram(which: 'server' | 'worker'): string {
  return path.join(root, process.env.CLINFLOW_DIST_DIR || '.next', 'clinflow', `${which}.cjs`);
}

export interface RunningServer {
  url: string;
  port: number;
  process: ChildProcess;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `clinflow-${prefix}-`));
}

/** Starts the built app (`npm start`'s program) as its own process, as a user would, and waits until it answers. */
/** `env`: what the server gets besides the defaults below; a variable set to undefined is left unset. */
export async function startServer(env: Record<string, string | undefined>, opts: { waitReady?: boolean } = {}): Promise<RunningServer> {
  const port = await freePort();
  let out = '';
  const child = spawn(process.execPath, [builtProgram('server')], {
    cwd: root,
    // the tests' sinks listen on 127.0.0.1, which outbound calls may not reach by default; one process
    // unless a test asks for more, with a pool of 5: the suite's servers share the machine's Postgres, whose 100
    // connections its files running at once exceeded at 10 each ("too many clients": 503s in the rate-limit test)
    env: withoutUnset({
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      OUTBOUND_ALLOW: 'loopback',
      WEB_CONCURRENCY: '1',
      DATABASE_POOL_MAX: '5',
      PORT: String(port),
      HOSTNAME: '127.0.0.1',
      ...env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const server: RunningServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    process: child,
    output: () => out,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    },
  };
  if (opts.waitReady === false) return server;
  // a first start migrates and bootstraps: under heavy load on 2 cores (average 17-20) that alone took ~55 s;
  // TEST_SERVER_READY_MS changes the wait
  const deadline = Date.now() + Number(process.env.TEST_SERVER_READY_MS ?? 120_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${out}`);
    try {
      const res = await fetch(`${server.url}/api/openapi.json`);
      if (res.ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  await server.stop('SIGKILL');
  throw new Error(`server did not become ready:\n${out}`);
}

function withoutUnset(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined)) as NodeJS.ProcessEnv;
}
