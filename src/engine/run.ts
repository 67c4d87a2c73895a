import type { PipelineDefinition } from '@/shared/pipeline';
import { emptyRun, runNode, type NodeRun, type NodeRunOptions } from './execute-node';
import { descendants, type Graph, type Registry } from './graph';
import { gatherFrom, planOf, shouldSkip, type Schedule } from './plan';
import type { NodeServices } from './types';

export interface RunOptions {
  executionId: string;
  inputs: Record<string, unknown>;
  testMode: boolean;
  registry: Registry;
  services: NodeServices;
  signal?: AbortSignal;
  /** Runs taken over as they are (retry: the nodes upstream of the retried one). */
  carried?: Record<string, NodeRun>;
  /** Input values that replace what upstream gives, per node (retry with `inputs`). */
  inputOverrides?: Record<string, Record<string, unknown>>;
  /** Called as a node starts; a returned promise is awaited before the node runs. */
  onNodeStart?(nodeId: string, inputs: Record<string, unknown>): void | Promise<void>;
  /** Called as a node settles; a returned promise is awaited before its downstream starts. */
  onNodeEnd?(nodeId: string, run: NodeRun): void | Promise<void>;
}

export interface RunResult {
  status: 'completed' | 'failed';
  outputs: Record<string, unknown>;
  nodes: Record<string, NodeRun>;
  error: { node_id: string | null; code: string; message: string } | null;
}

/**
 * Runs a pipeline: every node once its upstreams have settled, independent branches concurrently. The
 * first failure stops new nodes from starting: its downstream fails (UPSTREAM_FAILED), the rest is skipped.
 */
export function runPipeline(def: PipelineDefinition, opts: RunOptions): Promise<RunResult> {
  const { report, graph, schedule } = planOf(def, opts.registry);
  if (!report.valid) {
    const first = report.errors[0]!;
    const message = `The pipeline is not valid: ${report.errors.map((e) => (e.node_id ? `${e.node_id}: ${e.message}` : e.message)).join('; ')}`;
    return Promise.resolve({ status: 'failed', outputs: {}, nodes: {}, error: { node_id: first.node_id, code: 'INVALID_PIPELINE', message } });
  }
  return new Promise((resolve, reject) => new Run(graph, schedule, opts, resolve, reject).start());
}

/** Stands for a node that is running (its record arrives when it settles). */
const STARTED: NodeRun = Object.freeze(emptyRun('running')) as NodeRun;

/** One execution's scheduling state. Completion-driven: each settled node starts whatever it unblocked. */
class Run {
  /** Each node's run by position: carried, STARTED, or final. */
  private readonly runs: (NodeRun | undefined)[];
  /** Upstream connections each node (by position) still waits for; it is decided when its count reaches zero. */
  private readonly waiting: number[];
  private readonly ready: number[] = [];
  private next = 0;
  /** Nodes running, and hooks being awaited. */
  private active = 0;
  private failure: RunResult['error'] = null;
  private done = false;
  private readonly nodeOptions: NodeRunOptions;

  constructor(
    private readonly graph: Graph,
    private readonly schedule: Schedule,
    private readonly opts: RunOptions,
    private readonly resolve: (r: RunResult) => void,
    private readonly reject: (e: unknown) => void,
  ) {
    this.runs = new Array<NodeRun | undefined>(schedule.ids.length);
    if (opts.carried) schedule.ids.forEach((id, i) => (this.runs[i] = opts.carried![id]));
    this.waiting = schedule.indegree.slice();
    this.nodeOptions = {
      executionId: opts.executionId,
      executionInputs: opts.inputs,
      testMode: opts.testMode,
      services: opts.services,
      signal: opts.signal,
      runSubgraph: (body, inputs) => runSubgraph(body, inputs, opts),
    };
  }

  start(): void {
    const { runs } = this;
    for (let i = 0; i < runs.length; i++) if (this.waiting[i] === 0 && !runs[i]) this.ready.push(i);
    for (let i = 0; i < runs.length; i++) if (runs[i]) this.unblock(i);
    this.pump();
  }

  /** Starts or settles every ready node; ends the run when nothing is left in flight. */
  private pump(now?: number): void {
    const { schedule, runs, opts } = this;
    while (this.next < this.ready.length && !this.failure) {
      const i = this.ready[this.next++]!;
      const id = schedule.ids[i]!;
      const gathered = gatherFrom(schedule.incoming[i]!, schedule.sources[i]!, runs);
      if (gathered.wait) continue;
      const override = opts.inputOverrides?.[id];
      const inputs = override ? { ...gathered.inputs, ...override } : gathered.inputs;
      if (gathered.upstreamFailed) {
        this.settle(i, emptyRun('failed', { code: 'UPSTREAM_FAILED', message: `Upstream node "${gathered.upstreamFailed}" failed.` }));
      } else if (!override && shouldSkip(this.graph, id, inputs, schedule.nodes[i], gathered.filled)) {
        this.settle(i, { ...emptyRun('skipped'), inputs });
      } else {
        this.begin(i, inputs, (now ??= Date.now()));
      }
    }
    if (this.active === 0 && !this.done) this.finish();
  }

  private begin(i: number, inputs: Record<string, unknown>, now: number): void {
    this.active++;
    const id = this.schedule.ids[i]!;
    this.runs[i] = STARTED;
    const hook = this.opts.onNodeStart?.(id, inputs);
    if (hook) hook.then(() => this.execute(i, inputs, Date.now()), (e: unknown) => this.abort(e));
    else this.execute(i, inputs, now);
  }

  private execute(i: number, inputs: Record<string, unknown>, now: number): void {
    runNode(this.schedule.nodes[i]!, inputs, this.nodeOptions, (run) => {
      this.active--;
      if (run.status === 'failed' && !this.failure) {
        const id = this.schedule.ids[i]!;
        const type = this.schedule.nodes[i]!.def.type;
        this.failure = { node_id: id, code: run.error!.code, message: `Node "${id}" (${type}) failed: ${run.error!.message}` };
      }
      this.settle(i, run);
      this.pump(run.finished_ms!); // what this node unblocked starts as it ends
    }, now);
  }

  /** Records a node's final run; its downstream may start once the end hook (if any) is through. */
  private settle(i: number, run: NodeRun): void {
    const id = this.schedule.ids[i]!;
    this.runs[i] = run;
    const hook = this.opts.onNodeEnd?.(id, run);
    if (!hook) return this.unblock(i);
    this.active++;
    hook.then(
      () => {
        this.active--;
        this.unblock(i);
        this.pump();
      },
      (e: unknown) => this.abort(e),
    );
  }

  private unblock(i: number): void {
    const { waiting, runs, schedule } = this;
    for (const t of schedule.targets[i]!) {
      if (--waiting[t]! === 0 && !runs[t]) this.ready.push(t);
    }
  }

  /** A hook failed (the host could not record progress): the run cannot be trusted to go on. */
  private abort(e: unknown): void {
    if (this.done) return;
    this.done = true;
    this.reject(e);
  }

  /** Nodes that never ran: failed when downstream of the failure, skipped otherwise. Then the result. */
  private finish(): void {
    this.done = true;
    const { graph, runs, failure, opts, schedule } = this;
    let failedDownstream: Set<string> | null = null;
    const hooks: Promise<void>[] = [];
    const nodes: Record<string, NodeRun> = {};
    const outputs: Record<string, unknown> = {};
    for (let i = 0; i < runs.length; i++) {
      const id = schedule.ids[i]!;
      let run = runs[i];
      if (!run) {
        if (failure?.node_id) failedDownstream ??= descendants(graph, failure.node_id);
        run = failedDownstream?.has(id)
          ? emptyRun('failed', { code: 'UPSTREAM_FAILED', message: `Upstream node "${failure!.node_id}" failed.` })
          : emptyRun('skipped');
        const hook = opts.onNodeEnd?.(id, run);
        if (hook) hooks.push(hook);
      }
      nodes[id] = run;
      if (run.emit) outputs[run.emit.key] = run.emit.value;
    }
    const result: RunResult = { status: failure ? 'failed' : 'completed', outputs, nodes, error: failure };
    if (hooks.length === 0) this.resolve(result);
    else Promise.all(hooks).then(() => this.resolve(result), this.reject);
  }
}

/** A for-each body: its own run with the item as inputs; a failure inside fails the item. */
async function runSubgraph(body: PipelineDefinition, inputs: Record<string, unknown>, opts: RunOptions): Promise<Record<string, unknown>> {
  const sub = await runPipeline(body, { ...opts, inputs, carried: undefined, inputOverrides: undefined, onNodeStart: undefined, onNodeEnd: undefined });
  if (sub.status === 'failed') throw new Error(sub.error?.message ?? 'the body failed');
  return sub.outputs;
}
