import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Starts `npm run worker`'s program as its own process (tsx as a loader, so the pid is the worker's own:
 * a signal reaches the worker itself) and waits until it works the queue.
 */
export async function startWorker(env: Record<string, string>): Promise<{ process: ChildProcess; output(): string; exited: Promise<number | null> }> {
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/worker-main.ts'], {
    cwd: root,
    // the tests' sinks listen on 127.0.0.1, which outbound calls may not reach by default
    env: { ...process.env, LOG_LEVEL: 'info', OUTBOUND_ALLOW: 'loopback', ...env },
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
