import type { PipelineDefinition } from '@/shared/pipeline';
import type { GraphNode } from './graph';
import { addDeadline, clearDeadline, type Deadline } from './deadlines';
import { NodeError } from './node-error';
import type { LogEntry, NodeContext, NodeResult, NodeServices } from './node-type';
import type { NodeStatus, SkipReason } from '@/shared/statuses';

export type { NodeStatus, SkipReason };

export interface NodeRun {
  status: NodeStatus;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  /** Epoch milliseconds (the engine keeps numbers; storage and the API turn them into timestamps). */
  started_ms: number | null;
  finished_ms: number | null;
  duration_ms: number | null;
  logs: LogEntry[];
  error: { code: string; message: string } | null;
  attempts: number;
  /** What the node gave the execution's outputs (`outputs[key] = value`), if anything. */
  emit?: { key: string; value: unknown };
  /** A skipped node: why it did not run. */
  reason?: SkipReason;
}

export interface NodeRunOptions {
  executionId: string;
  /** See RunOptions.idempotencyId. */
  idempotencyId?: string;
  executionInputs: Record<string, unknown>;
  testMode: boolean;
  services: NodeServices;
  signal?: AbortSignal;
  runSubgraph: NodeContext['runSubgraph'];
  /** See NodeContext.outputRead, for the node `nodeId`. */
  outputRead(nodeId: string, port: string): boolean;
  /** See NodeContext.outputTargets, for the node `nodeId`. */
  outputTargets?(nodeId: string, port: string): readonly string[] | undefined;
}

export function emptyRun(status: NodeStatus, error: NodeRun['error'] = null): NodeRun {
  return { status, inputs: {}, outputs: {}, started_ms: null, finished_ms: null, duration_ms: null, logs: [], error, attempts: 0 };
}

/** A node that did not run, and why. Only the node that failed is `failed`; its downstream is skipped. */
export function skippedRun(reason: SkipReason, inputs: Record<string, unknown> = {}): NodeRun {
  return { ...emptyRun('skipped'), inputs, reason };
}

/** Shared placeholders until a node gives outputs or logs something (most never log). */
const NONE: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;
// frozen, so a push onto the shared empty list fails loudly instead of leaking logs between runs
const NO_LOGS = Object.freeze([] as LogEntry[]) as LogEntry[];

function addLog(run: NodeRun, entry: LogEntry): void {
  if (run.logs === NO_LOGS) run.logs = [];
  run.logs.push(entry);
}

/**
 * Runs one node with its time limit and retry policy; never fails — failures are in the run record. The
 * engine's hot path, callback style so that a node costs little beyond its own work: `done` is always
 * called later (never synchronously) with the finished record. `now` lets a caller that just read the
 * clock (the upstream node's end) save a read.
 */
export function runNode(node: GraphNode, inputs: Record<string, unknown>, opts: NodeRunOptions, done: (run: NodeRun) => void, now = Date.now()): void {
  // pinned data (n8n's): a test run takes the node's pinned outputs instead of running it; real runs never do
  if (opts.testMode && node.def.pinned) {
    const log = {
      level: 'info' as const,
      message: `pinned outputs used (${Object.keys(node.def.pinned).join(', ') || 'none'}): the node did not run`,
      time: new Date(now).toISOString(),
    };
    return done({
      status: 'completed',
      inputs,
      outputs: node.def.pinned,
      started_ms: now,
      finished_ms: now,
      duration_ms: 0,
      logs: [log],
      error: null,
      attempts: 0,
    });
  }
  const run: NodeRun = {
    status: 'running',
    inputs,
    outputs: NONE,
    started_ms: now,
    finished_ms: null,
    duration_ms: null,
    logs: NO_LOGS,
    error: null,
    attempts: 0,
  };
  new Attempt(node, run, opts, done).start(now);
}

/**
 * One attempt of a node: what the node sees while it runs (its context; the abort signal is made only
 * if the node asks for it), and what happens when it succeeds, fails or runs out of time.
 */
class Attempt implements NodeContext {
  readonly executionId: string;
  readonly nodeId: string;
  readonly testMode: boolean;
  readonly executionInputs: Record<string, unknown>;
  readonly services: NodeServices;
  private settled = false;
  private deadline: Deadline | null = null;
  private controller: AbortController | undefined;
  private abortReason: unknown;
  private onOuterAbort: (() => void) | undefined;

  constructor(
    private readonly node: GraphNode,
    private readonly run: NodeRun,
    private readonly opts: NodeRunOptions,
    private readonly done: (run: NodeRun) => void,
  ) {
    this.executionId = opts.executionId;
    this.nodeId = node.def.id;
    this.testMode = opts.testMode;
    this.executionInputs = opts.executionInputs;
    this.services = opts.services;
  }

  start(now: number): void {
    const { node, run, opts } = this;
    run.attempts++;
    this.deadline = addDeadline(node.settings.timeout_ms, now, this);
    let work: Promise<NodeResult>;
    if (!node.type || node.configError) {
      work = Promise.reject(new NodeError('INVALID_NODE', `Node "${node.def.id}" has an unknown type or an invalid config.`));
    } else if (opts.signal?.aborted) {
      work = Promise.reject(new NodeError('CANCELLED', 'The execution was cancelled.'));
    } else {
      try {
        work = node.type.execute(this, run.inputs, node.config);
      } catch (e) {
        work = Promise.reject(e);
      }
    }
    work.then(this.succeed, this.fail);
  }

  private readonly succeed = (result: NodeResult): void => {
    if (!this.end()) return;
    const { run } = this;
    run.status = result.simulated ? 'simulated' : 'completed';
    run.outputs = result.outputs;
    if (result.emit) run.emit = result.emit;
    run.error = null;
    this.finish();
  };

  private readonly fail = (e: unknown): void => {
    if (!this.end()) return;
    const { run, node, opts } = this;
    run.error = toError(e);
    const last = run.attempts >= node.settings.retry.max_attempts || Boolean(opts.signal?.aborted);
    addLog(run, { level: last ? 'error' : 'warn', message: `attempt ${run.attempts} failed: ${run.error.message}`, time: new Date().toISOString() });
    if (last) {
      run.status = 'failed';
      this.finish();
    } else {
      const again = new Attempt(node, run, opts, this.done);
      sleep(node.settings.retry.backoff_ms * 2 ** (run.attempts - 1), opts.signal, () => again.start(Date.now()));
    }
  };

  /** The time limit: the node is told to stop (its signal aborts) and the attempt fails with TIMEOUT. */
  onDeadline(): void {
    const ms = this.node.settings.timeout_ms;
    this.abort(new NodeError('TIMEOUT', `timed out after ${ms} ms`));
    this.fail(new NodeError('TIMEOUT', `The node did not finish within ${ms} ms.`));
  }

  /** The first of success, failure and time limit wins; later ones are ignored. */
  private end(): boolean {
    if (this.settled) return false;
    this.settled = true;
    if (this.deadline) clearDeadline(this.deadline);
    if (this.onOuterAbort) this.opts.signal?.removeEventListener('abort', this.onOuterAbort);
    return true;
  }

  private finish(): void {
    const { run } = this;
    run.finished_ms = Date.now();
    run.duration_ms = run.finished_ms - run.started_ms!;
    this.done(run);
  }

  get idempotencyKey(): string {
    return `${this.opts.idempotencyId ?? this.executionId}:${this.nodeId}`;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.abortReason !== undefined) this.controller.abort(this.abortReason);
      else if (this.opts.signal && !this.settled) {
        this.onOuterAbort = () => this.abort(this.opts.signal?.reason);
        this.opts.signal.addEventListener('abort', this.onOuterAbort, { once: true });
      }
    }
    return this.controller.signal;
  }

  log(level: LogEntry['level'], message: string): void {
    addLog(this.run, { level, message: String(message).slice(0, 4000), time: new Date().toISOString() });
  }

  runSubgraph(definition: PipelineDefinition, inputs: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.opts.runSubgraph(definition, inputs);
  }

  outputRead(port: string): boolean {
    return this.opts.outputRead(this.nodeId, port);
  }

  outputTargets(port: string): readonly string[] | undefined {
    return this.opts.outputTargets?.(this.nodeId, port);
  }

  private abort(reason: unknown): void {
    this.abortReason ??= reason ?? new NodeError('CANCELLED', 'The execution was cancelled.');
    this.controller?.abort(this.abortReason);
  }
}

function sleep(ms: number, signal: AbortSignal | undefined, then: () => void): void {
  const onAbort = () => {
    clearTimeout(t);
    then();
  };
  const t = setTimeout(() => {
    signal?.removeEventListener('abort', onAbort);
    then();
  }, ms);
  signal?.addEventListener('abort', onAbort, { once: true });
}

function toError(e: unknown): { code: string; message: string } {
  if (e instanceof NodeError) return { code: e.code, message: e.message };
  if (e instanceof Error) return { code: 'NODE_FAILED', message: e.message };
  return { code: 'NODE_FAILED', message: String(e) };
}
