import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { builtProgram } from './server';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Starts `npm run worker`'s program (the bundled worker of the build under test) as its own process, so a
 * signal reaches the worker itself, and waits until it works the queue.
 */
export async function startWorker(env: Record<string, string>): Promise<{ process: ChildProcess; output(): string; exited: Promise<number | null> }> {
  let out = '';
  const child = spawn(process.execPath, [builtProgram('worker')], {
    cwd: root,
    // the tests' sinks listen on 127.0.0.1, which outbound calls may not reach by default; a pool of 5 as the test servers'
    env: { ...process.env, LOG_LEVEL: 'info', OUTBOUND_ALLOW: 'loopback', DATABASE_POOL_MAX: '5', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d;
      if (out.includes('ready')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d) => (out += d));
    void exited.then((code) => reject(new Error(`worker exited with ${code}:\n${out}`)));
  });
  return { process: child, output: () => out, exited };
}
