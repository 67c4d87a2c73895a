import type { PipelineDefinition } from '@/shared/pipeline';
import { disabledRun } from './disabled';
import { emptyRun, runNode, skippedRun, type NodeRun, type NodeRunOptions } from './execute-node';
import { descendants, outputTargets, topologicalOrder, type Graph, type Registry } from './graph';
import { planOf, runToNodes, type Plan, type Schedule } from './plan';
import { gatherFrom, shouldSkip } from './readiness';
import type { Finding } from './validate';
import type { NodeServices } from './node-type';

export interface RunOptions {
  executionId: string;
  /** What idempotency keys are made of, when not `executionId`: a retry's is its original's, so a write retried is sent with the same key. */
  idempotencyId?: string;
  inputs: Record<string, unknown>;
  testMode: boolean;
  registry: Registry;
  services: NodeServices;
  signal?: AbortSignal;
  /** Runs taken over as they are (retry: the nodes upstream of the retried one). */
  carried?: Record<string, NodeRun>;
  /**
   * Inputs that replace what upstream gives, per node and port (retry with `inputs`): the ports named
   * replace theirs; every other port keeps what upstream gives.
   */
  inputOverrides?: Record<string, Record<string, unknown>>;
  /**
   * "Run to here": only this node and its upstream run; every other node is skipped (not_requested) from
   * the start. A node id the definition does not have restricts nothing (callers check it first).
   */
  runTo?: string;
  /**
   * Whether what nodes give is read beyond the connections leaving them: kept in the run's records, or handed to a
   * caller waiting for the execution's outputs. Default true; false (a queued run whose policy keeps no payload of a
   * completed run) lets a node skip what only an unconnected output needs (NodeContext.outputRead).
   */
  outputsKept?: boolean;
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
 * first failure stops new nodes from starting: only that node is failed; the rest is skipped, each with
 * why (upstream_failed downstream of it, execution_stopped elsewhere).
 */
export function runPipeline(def: PipelineDefinition, opts: RunOptions): Promise<RunResult> {
  const { report, graph, schedule } = planOf(def, opts.registry);
  if (!report.valid) {
    const first = report.errors[0]!;
    return Promise.resolve({
      status: 'failed',
      outputs: {},
      nodes: {},
      error: { node_id: first.node_id, code: 'PIPELINE_INVALID', message: invalidMessage(report.errors) },
    });
  }
  return new Promise((resolve, reject) => new Run(graph, schedule, opts, resolve, reject).pump());
}

/** Stands for a node that is running (its record arrives when it settles). */
const STARTED: NodeRun = Object.freeze(emptyRun('running')) as NodeRun;

/**
 * One execution's scheduling state, shared by a full run and a step session: which nodes are settled,
 * which wait for upstreams, which are ready; how a ready node that cannot run is settled (its branch was
 * not taken, an upstream failed); and how the nodes that never ran are recorded at the end.
 */
abstract class Kernel {
  /** Each node's run by position: carried, STARTED, or final. */
  protected readonly runs: (NodeRun | undefined)[];
  /** Upstream connections each node (by position) still waits for; it is decided when its count reaches zero. */
  private readonly waiting: number[];
  protected readonly ready: number[] = [];
  protected next = 0;
  protected failure: RunResult['error'] = null;
  protected readonly nodeOptions: NodeRunOptions;

  constructor(
    protected readonly graph: Graph,
    protected readonly schedule: Schedule,
    protected readonly opts: RunOptions,
  ) {
    this.runs = new Array<NodeRun | undefined>(schedule.ids.length);
    if (opts.carried) schedule.ids.forEach((id, i) => (this.runs[i] = opts.carried![id]));
    const wanted = opts.runTo === undefined ? null : runToNodes(graph, opts.runTo);
    if (wanted) schedule.ids.forEach((id, i) => wanted.has(id) || (this.runs[i] ??= skippedRun('not_requested')));
    this.waiting = schedule.indegree.slice();
    this.nodeOptions = {
      executionId: opts.executionId,
      idempotencyId: opts.idempotencyId,
      executionInputs: opts.inputs,
      testMode: opts.testMode,
      services: opts.services,
      signal: opts.signal,
      runSubgraph: (body, inputs) => runSubgraph(body, inputs, opts),
      outputRead: opts.outputsKept === false ? (nodeId, port) => !!graph.outgoing.get(nodeId)?.some((c) => c.source_port === port) : () => true,
      outputTargets: (nodeId, port) => outputTargets(graph, nodeId, port),
    };
    for (let i = 0; i < this.runs.length; i++) if (this.waiting[i] === 0 && !this.runs[i]) this.ready.push(i);
    for (let i = 0; i < this.runs.length; i++) if (this.runs[i]) this.unblock(i);
  }

  /**
   * A ready node: settled at once (through `settle`) when it cannot run — an upstream failed, its branch
   * was not taken, or it is disabled (its input passes through) — otherwise its inputs. `undefined`: it
   * still waits for an upstream, or was settled.
   */
  protected decide(i: number): Record<string, unknown> | undefined {
    const { schedule, runs, opts } = this;
    const id = schedule.ids[i]!;
    const gathered = gatherFrom(schedule.incoming[i]!, schedule.sources[i]!, runs);
    if (gathered.wait) return undefined;
    const override = opts.inputOverrides?.[id];
    const inputs = override ? { ...gathered.inputs, ...override } : gathered.inputs;
    if (gathered.upstreamFailed) {
      this.settle(i, skippedRun('upstream_failed'));
    } else if (!override && shouldSkip(this.graph, id, inputs, schedule.nodes[i], gathered.filled)) {
      this.settle(i, skippedRun('branch_not_taken', inputs));
    } else if (schedule.nodes[i]!.def.disabled) {
      this.settle(i, disabledRun(schedule.nodes[i]!, inputs));
    } else {
      return inputs;
    }
    return undefined;
  }

  /** Records a node's final run; a failure is the execution's (the first one). */
  protected record(i: number, run: NodeRun): void {
    this.runs[i] = run;
    if (run.status === 'failed' && !this.failure) {
      const id = this.schedule.ids[i]!;
      const type = this.schedule.nodes[i]!.def.type;
      this.failure = { node_id: id, code: run.error!.code, message: `Node "${id}" (${type}) failed: ${run.error!.message}` };
    }
  }

  protected abstract settle(i: number, run: NodeRun): void;

  protected unblock(i: number): void {
    const { waiting, runs, schedule } = this;
    for (const t of schedule.targets[i]!) {
      if (--waiting[t]! === 0 && !runs[t]) this.ready.push(t);
    }
  }

  /**
   * The execution's result. Nodes that never ran are recorded as skipped, with why: downstream of the
   * failure, or stopped before their turn; `onFilled` sees each of them.
   */
  protected result(onFilled?: (id: string, run: NodeRun) => void): RunResult {
    const { graph, runs, failure, schedule } = this;
    let failedDownstream: Set<string> | null = null;
    const nodes: Record<string, NodeRun> = {};
    const outputs: Record<string, unknown> = {};
    for (let i = 0; i < runs.length; i++) {
      const id = schedule.ids[i]!;
      let run = runs[i];
      if (!run || run === STARTED) {
        if (failure?.node_id) failedDownstream ??= descendants(graph, failure.node_id);
        run = skippedRun(failedDownstream?.has(id) ? 'upstream_failed' : failure ? 'execution_stopped' : 'branch_not_taken');
        runs[i] = run;
        onFilled?.(id, run);
      }
      nodes[id] = run;
      if (run.emit) outputs[run.emit.key] = run.emit.value;
    }
    return { status: failure ? 'failed' : 'completed', outputs, nodes, error: failure };
  }
}

/** A full run. Completion-driven: each settled node starts whatever it unblocked, independent branches at once. */
class Run extends Kernel {
  /** Nodes running, and hooks being awaited. */
  private active = 0;
  private done = false;

  constructor(
    graph: Graph,
    schedule: Schedule,
    opts: RunOptions,
    private readonly resolve: (r: RunResult) => void,
    private readonly reject: (e: unknown) => void,
  ) {
    super(graph, schedule, opts);
  }

  /** Starts or settles every ready node; ends the run when nothing is left in flight. */
  pump(now?: number): void {
    while (this.next < this.ready.length && !this.failure) {
      const i = this.ready[this.next++]!;
      const inputs = this.decide(i);
      if (inputs) this.begin(i, inputs, (now ??= Date.now()));
    }
    if (this.active === 0 && !this.done) this.finish();
  }

  private begin(i: number, inputs: Record<string, unknown>, now: number): void {
    this.active++;
    const id = this.schedule.ids[i]!;
    this.runs[i] = STARTED;
    const hook = this.opts.onNodeStart?.(id, inputs);
    if (hook)
      hook.then(
        () => this.execute(i, inputs, Date.now()),
        (e: unknown) => this.abort(e),
      );
    else this.execute(i, inputs, now);
  }

  private execute(i: number, inputs: Record<string, unknown>, now: number): void {
    runNode(
      this.schedule.nodes[i]!,
      inputs,
      this.nodeOptions,
      (run) => {
        this.active--;
        this.settle(i, run);
        this.pump(run.finished_ms!); // what this node unblocked starts as it ends
      },
      now,
    );
  }

  /** Records a node's final run; its downstream may start once the end hook (if any) is through. */
  protected settle(i: number, run: NodeRun): void {
    this.record(i, run);
    const hook = this.opts.onNodeEnd?.(this.schedule.ids[i]!, run);
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

  /** A hook failed (the host could not record progress): the run cannot be trusted to go on. */
  private abort(e: unknown): void {
    if (this.done) return;
    this.done = true;
    this.reject(e);
  }

  private finish(): void {
    this.done = true;
    const hooks: Promise<void>[] = [];
    const result = this.result((id, run) => {
      const hook = this.opts.onNodeEnd?.(id, run);
      if (hook) hooks.push(hook);
    });
    if (hooks.length === 0) this.resolve(result);
    else Promise.all(hooks).then(() => this.resolve(result), this.reject);
  }
}

/** What one step of a step session did. */
export interface StepOutcome {
  /** The node that was advanced, and its run. */
  node: string;
  run: NodeRun;
  /** Every node whose record changed: the advanced one, and those settled on the way to the next. */
  changed: Record<string, NodeRun>;
  /** The node the session waits at now; null when the execution is over. */
  next: string | null;
  /** The execution's result, once it is over. */
  result: RunResult | null;
}

/**
 * A run advanced one node at a time (a step session), on the same kernel as a full run: the session's
 * stored records come in as `carried`, the next node is the first ready one in topological order (stable
 * in definition order), and nodes that cannot run are settled on the way exactly as a full run settles
 * them. Hooks of RunOptions are not used: the caller stores `changed` after each step.
 */
export class StepRun extends Kernel {
  private readonly rank: Map<string, number>;
  private readonly runnable = new Map<number, Record<string, unknown>>();
  private changed: Record<string, NodeRun> = {};

  private constructor(plan: Plan, opts: RunOptions) {
    super(plan.graph, plan.schedule, opts);
    this.rank = new Map(topologicalOrder(plan.graph).order.map((id, k) => [id, k]));
  }

  /** A step session's run of a valid definition (refuse invalid ones before: `planOf(…).report`). */
  static of(def: PipelineDefinition, opts: RunOptions): StepRun {
    const plan = planOf(def, opts.registry);
    if (!plan.report.valid) throw new Error(invalidMessage(plan.report.errors));
    return new StepRun(plan, opts);
  }

  protected settle(i: number, run: NodeRun): void {
    this.record(i, run);
    this.changed[this.schedule.ids[i]!] = run;
    this.unblock(i);
  }

  /** The node to run next, settling what cannot run on the way; null when nothing is left to run. */
  current(): string | null {
    if (this.failure) return null;
    while (this.next < this.ready.length) {
      const i = this.ready[this.next++]!;
      const inputs = this.decide(i);
      if (inputs) this.runnable.set(i, inputs);
    }
    let best = -1;
    for (const i of this.runnable.keys()) {
      if (best < 0 || this.rank.get(this.schedule.ids[i]!)! < this.rank.get(this.schedule.ids[best]!)!) best = i;
    }
    return best < 0 ? null : this.schedule.ids[best]!;
  }

  /** Nodes settled since the last call (by `current` or `advance`). */
  takeChanged(): Record<string, NodeRun> {
    const changed = this.changed;
    this.changed = {};
    return changed;
  }

  /**
   * Runs the current node for real (in test mode when the execution is), or, given `outputs`, takes them
   * as its result (pinned data); then settles what follows up to the next runnable node.
   */
  async advance(outputs?: Record<string, unknown>): Promise<StepOutcome> {
    const id = this.current();
    if (id === null) throw new Error('There is no node left to run.');
    const i = this.schedule.ids.indexOf(id);
    const inputs = this.runnable.get(i)!;
    this.runnable.delete(i);
    let run: NodeRun;
    if (outputs) {
      const now = Date.now();
      const log = { level: 'info' as const, message: 'outputs set by hand in the step debugger', time: new Date(now).toISOString() };
      run = { ...emptyRun('completed'), inputs, outputs, started_ms: now, finished_ms: now, duration_ms: 0, logs: [log] };
    } else {
      run = await new Promise<NodeRun>((resolve) => runNode(this.schedule.nodes[i]!, inputs, this.nodeOptions, resolve));
    }
    this.settle(i, run);
    const next = this.current();
    const result = next === null ? this.result((filled, r) => (this.changed[filled] = r)) : null;
    return { node: id, run, changed: this.takeChanged(), next, result };
  }
}

function invalidMessage(errors: Finding[]): string {
  return `The pipeline is not valid: ${errors.map((e) => (e.node_id ? `${e.node_id}: ${e.message}` : e.message)).join('; ')}`;
}

/** A for-each body: its own run with the item as inputs; a failure inside fails the item. */
async function runSubgraph(body: PipelineDefinition, inputs: Record<string, unknown>, opts: RunOptions): Promise<Record<string, unknown>> {
  const sub = await runPipeline(body, {
    ...opts,
    inputs,
    carried: undefined,
    inputOverrides: undefined,
    runTo: undefined,
    // a body's outputs are its caller's
    outputsKept: true,
    onNodeStart: undefined,
    onNodeEnd: undefined,
  });
  if (sub.status === 'failed') throw new Error(sub.error?.message ?? 'the body failed');
  return sub.outputs;
}
