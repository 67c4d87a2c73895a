import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { NodeError } from '../node-error';
import type { NodeContext } from '../node-type';
import { MAX_LOG_LINES } from '../nodes/code';
import { processWide } from './process-wide';

/**
 * The `code` node's runs, on a pool of worker threads (code-sandbox-worker.mjs runs each in a fresh QuickJS
 * instance with its time and memory limits): user code never runs on the thread that serves requests, so a
 * `while (true) {}` costs its organization a worker for `timeout_ms`, not everyone their responses. Workers
 * are shared fairly: waiting runs are started organization by organization in turn, and one organization
 * never holds every worker while another waits. A worker that does not answer in time, or whose run is
 * cancelled, is terminated and replaced.
 */

const MB = 1024 * 1024;
/** Beyond timeout_ms, how long a worker may take to answer (start, teardown) before it is terminated. */
const GRACE_MS = 2_000;
const WORKER_FILE = path.resolve(process.cwd(), 'src/engine/lib/code-sandbox-worker.mjs');

interface Job {
  id: number;
  tenant: string;
  message: { id: number; source: string; json: string; timeoutMs: number; memoryMb: number; maxLogLines: number };
  ctx: NodeContext;
  resolve: (json: string) => void;
  reject: (e: NodeError) => void;
}

interface Slot {
  worker: Worker;
  job?: Job;
  timer?: NodeJS.Timeout;
}

class SandboxPool {
  private readonly slots: Slot[] = [];
  /** Waiting runs per organization, in arrival order; `turns` is the order organizations are served in. */
  private readonly waiting = new Map<string, Job[]>();
  private turns: string[] = [];
  private seq = 0;

  constructor(private readonly size: number) {}

  run(ctx: NodeContext, tenant: string, message: Omit<Job['message'], 'id'>): Promise<string> {
    return new Promise((resolve, reject) => {
      const id = ++this.seq;
      const job: Job = { id, tenant, message: { ...message, id }, ctx, resolve, reject };
      if (ctx.signal.aborted) return reject(cancelled());
      ctx.signal.addEventListener('abort', () => this.cancel(job), { once: true });
      const queue = this.waiting.get(tenant) ?? [];
      if (queue.length === 0) this.turns.push(tenant);
      queue.push(job);
      this.waiting.set(tenant, queue);
      this.dispatch();
    });
  }

  private running(tenant: string): number {
    return this.slots.filter((s) => s.job?.tenant === tenant).length;
  }

  /** Starts waiting runs on free workers, organizations in turn; one organization keeps a worker free for others. */
  private dispatch(): void {
    for (;;) {
      const free = this.freeSlot();
      if (!free) return;
      const tenant = this.turns.find((t) => this.turns.length === 1 || this.running(t) < Math.max(1, this.size - 1));
      if (!tenant) return;
      const queue = this.waiting.get(tenant)!;
      const job = queue.shift()!;
      this.turns = this.turns.filter((t) => t !== tenant);
      if (queue.length > 0) this.turns.push(tenant);
      else this.waiting.delete(tenant);
      this.start(free, job);
    }
  }

  private freeSlot(): Slot | undefined {
    const idle = this.slots.find((s) => !s.job);
    if (idle) return idle;
    if (this.slots.length >= this.size) return undefined;
    const slot: Slot = { worker: spawn() };
    this.listen(slot);
    this.slots.push(slot);
    return slot;
  }

  private listen(slot: Slot): void {
    slot.worker.on(
      'message',
      (m: {
        id: number;
        type: 'log' | 'done' | 'error';
        level?: 'debug' | 'info' | 'warn' | 'error';
        text?: string;
        json?: string;
        code?: string;
        message?: string;
      }) => {
        const job = slot.job;
        if (!job || m.id !== job.id) return;
        if (m.type === 'log') return job.ctx.log(m.level ?? 'info', m.text ?? '');
        this.finish(slot);
        if (m.type === 'done') job.resolve(m.json ?? 'null');
        else job.reject(new NodeError(m.code ?? 'CODE_FAILED', m.message ?? 'The code failed.'));
      },
    );
    // a worker that dies (out of memory in the host, a crash) fails its run and is replaced
    slot.worker.on('error', () =>
      this.replace(slot, new NodeError('CODE_FAILED', 'The JavaScript sandbox stopped while running the code; the run was stopped.')),
    );
    slot.worker.on('exit', () =>
      this.replace(slot, new NodeError('CODE_FAILED', 'The JavaScript sandbox stopped while running the code; the run was stopped.')),
    );
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    slot.worker.ref(); // a run under way keeps the process alive, an idle pool does not
    slot.timer = setTimeout(
      () => this.replace(slot, new NodeError('CODE_TIMEOUT', `The code ran longer than ${job.message.timeoutMs} ms and was stopped.`), true),
      job.message.timeoutMs + GRACE_MS,
    );
    slot.worker.postMessage(job.message);
  }

  private finish(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.job = undefined;
    slot.worker.unref();
    setImmediate(() => this.dispatch());
  }

  /** Fails the slot's run (if any) with `error`, and puts a new worker in its place. */
  private replace(slot: Slot, error: NodeError, terminate = false): void {
    const job = slot.job;
    clearTimeout(slot.timer);
    slot.job = undefined;
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    slot.worker.removeAllListeners('exit');
    if (terminate) void slot.worker.terminate();
    job?.reject(error);
    this.dispatch();
  }

  private cancel(job: Job): void {
    const queue = this.waiting.get(job.tenant);
    const at = queue?.indexOf(job) ?? -1;
    if (at >= 0) {
      queue!.splice(at, 1);
      if (queue!.length === 0) {
        this.waiting.delete(job.tenant);
        this.turns = this.turns.filter((t) => t !== job.tenant);
      }
      return job.reject(cancelled());
    }
    const slot = this.slots.find((s) => s.job === job);
    if (slot) this.replace(slot, cancelled(), true);
  }
}

function cancelled(): NodeError {
  return new NodeError('CANCELLED', 'The code was stopped: the execution was cancelled.');
}

function spawn(): Worker {
  if (!existsSync(WORKER_FILE)) throw new NodeError('CODE_FAILED', `The code sandbox is missing (${WORKER_FILE}); start the server from the project folder.`);
  const worker = new Worker(WORKER_FILE);
  worker.unref();
  return worker;
}

/** Runs `source` as a function body on `input` in the sandbox pool, for the organization `tenant`. */
export async function runSandboxed(
  ctx: NodeContext,
  tenant: string,
  source: string,
  input: unknown,
  limits: { timeout_ms: number; memory_mb: number },
): Promise<unknown> {
  let json: string;
  try {
    json = JSON.stringify(input ?? null);
  } catch (e) {
    throw new NodeError('CODE_FAILED', `The input cannot be passed to the sandbox as JSON: ${(e as Error).message}`);
  }
  // The input is copied in twice (as text, then parsed): refuse early what cannot fit.
  const inputBytes = Buffer.byteLength(json);
  if (2 * inputBytes > limits.memory_mb * MB) {
    throw new NodeError(
      'CODE_MEMORY_LIMIT',
      `The input (${(inputBytes / MB).toFixed(1)} MB as JSON) does not fit in ${limits.memory_mb} MB of sandbox memory.`,
    );
  }
  const pool = processWide('code-sandbox-pool', () => new SandboxPool(Math.max(2, Math.min(4, os.availableParallelism()))));
  const out = await pool.run(ctx, tenant, { source, json, timeoutMs: limits.timeout_ms, memoryMb: limits.memory_mb, maxLogLines: MAX_LOG_LINES });
  return JSON.parse(out) as unknown;
}
