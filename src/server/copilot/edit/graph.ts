import { getNodeDescriptor } from '@/engine/nodes/descriptors';
import type { PipelineConnection, PipelineDefinition, PipelineNode } from '@/shared/pipeline';
import type { PortType } from '@/shared/ports';
import { BEHAVIORS, doesJob, isOutput, triggerEventsOf } from '../planner/behaviors';
import { outFlow, type Point } from '../planner/build';
import { idBase } from '../planner/catalog';
import { portsFor } from '../planner/catalog';
import type { Flow, Kind } from '../planner/flow';

/**
 * A pipeline as the edit planner works on it: the definition (changed in place), the port types of each node for
 * its config, and what flows out of each output (HL7 v2 text, a FHIR Bundle, CSV rows…), followed from the trigger
 * with the same node behaviors the generator plans with.
 */
export class EditGraph {
  constructor(readonly def: PipelineDefinition) {}

  clone(): EditGraph {
    return new EditGraph(structuredClone(this.def));
  }

  node(id: string): PipelineNode | undefined {
    return this.def.nodes.find((n) => n.id === id);
  }

  get trigger(): PipelineNode | undefined {
    return this.def.nodes.find((n) => getNodeDescriptor(n.type)?.trigger);
  }

  incoming(id: string): PipelineConnection[] {
    return this.def.connections.filter((c) => c.target === id);
  }

  outgoing(id: string, port?: string): PipelineConnection[] {
    return this.def.connections.filter((c) => c.source === id && (port === undefined || c.source_port === port));
  }

  inputType(id: string, port: string): PortType | undefined {
    const n = this.node(id);
    return n ? portsFor(n.type, n.config).inputs.find((p) => p.name === port)?.type : undefined;
  }

  outputType(id: string, port: string): PortType | undefined {
    const n = this.node(id);
    return n ? portsFor(n.type, n.config).outputs.find((p) => p.name === port)?.type : undefined;
  }

  /** The input the flow enters a node by (its behavior's, else its first). */
  mainInput(id: string): string | undefined {
    const n = this.node(id)!;
    const inputs = portsFor(n.type, n.config).inputs;
    const b = BEHAVIORS[n.type]?.input;
    return inputs.find((p) => p.name === b)?.name ?? inputs[0]?.name;
  }

  /** The output the flow goes on from (its behavior's; a switch's first case; else the first output). */
  mainOutput(id: string): string | undefined {
    const n = this.node(id)!;
    const outputs = portsFor(n.type, n.config).outputs;
    const b = BEHAVIORS[n.type]?.output;
    if (b && outputs.some((p) => p.name === b)) return b;
    const used = outputs.find((p) => this.outgoing(id, p.name).length > 0 && p.name !== BEHAVIORS[n.type]?.aside);
    return used?.name ?? outputs[0]?.name;
  }

  /** The output that takes the rest aside (invalid, false, rejected), if the node has one. */
  asideOutput(id: string): string | undefined {
    const n = this.node(id)!;
    const aside = BEHAVIORS[n.type]?.branches?.aside ?? BEHAVIORS[n.type]?.aside;
    return aside && portsFor(n.type, n.config).outputs.some((p) => p.name === aside) ? aside : undefined;
  }

  /** The connection into a node's main input (else its first). */
  mainIn(id: string): PipelineConnection | undefined {
    const port = this.mainInput(id);
    return this.incoming(id).find((c) => c.target_port === port) ?? this.incoming(id)[0];
  }

  /** Node ids in the order the data reaches them (trigger first). */
  order(): string[] {
    const seen: string[] = [];
    const indeg = new Map(this.def.nodes.map((n) => [n.id, this.incoming(n.id).length]));
    const queue = this.def.nodes.filter((n) => indeg.get(n.id) === 0).map((n) => n.id);
    while (queue.length) {
      const id = queue.shift()!;
      seen.push(id);
      for (const c of this.outgoing(id)) {
        indeg.set(c.target, indeg.get(c.target)! - 1);
        if (indeg.get(c.target) === 0) queue.push(c.target);
      }
    }
    return [...seen, ...this.def.nodes.map((n) => n.id).filter((id) => !seen.includes(id))];
  }

  downstream(id: string): Set<string> {
    const seen = new Set<string>();
    const stack = [id];
    while (stack.length) for (const c of this.outgoing(stack.pop()!)) if (!seen.has(c.target)) stack.push((seen.add(c.target), c.target));
    return seen;
  }

  /** The main chain: from the trigger along each node's main output, as far as it goes. */
  mainChain(): string[] {
    const chain: string[] = [];
    let at = this.trigger?.id;
    while (at && !chain.includes(at)) {
      chain.push(at);
      const port = this.trigger?.id === at ? this.outgoing(at)[0]?.source_port : this.mainOutput(at);
      const next = this.outgoing(at, port).find((c) => !isOutput(this.node(c.target)?.type ?? '')) ?? this.outgoing(at, port)[0];
      at = next?.target;
    }
    return chain;
  }

  /** What flows out of each output port, followed from the trigger. */
  flows(): Map<string, Flow> {
    const flows = new Map<string, Flow>();
    for (const id of this.order()) {
      const n = this.node(id)!;
      const outputs = portsFor(n.type, n.config).outputs;
      if (getNodeDescriptor(n.type)?.trigger) {
        for (const p of outputs) flows.set(`${id}.${p.name}`, this.triggerFlow(n, p.name, p.type));
        continue;
      }
      const into = this.mainIn(id);
      const inFlow = (into && flows.get(`${into.source}.${into.source_port}`)) ?? { type: 'json' as PortType, kind: 'json' as Kind };
      for (const p of outputs) {
        const aside = p.name === this.asideOutput(id) && !BEHAVIORS[n.type]?.router;
        let f: Flow = aside ? { type: p.type, kind: 'json' } : outFlow(n.type, p.name, inFlow, n.config);
        if (isOutput(n.type)) f = inFlow;
        if (!BEHAVIORS[n.type] && !aside) f = { type: p.type === 'any' ? inFlow.type : p.type, kind: inFlow.kind };
        flows.set(`${id}.${p.name}`, f);
      }
    }
    return flows;
  }

  /** What a trigger's output carries: by its port type, the field's name and the nodes it feeds. */
  private triggerFlow(n: PipelineNode, port: string, type: PortType): Flow {
    if (type === 'trigger-event') return { type, kind: 'event' };
    if (triggerEventsOf(n.type)?.includes('mllp')) return { type, kind: 'hl7' };
    const parses = (data: Kind) => feeds.some((t) => BEHAVIORS[t]?.parses?.data === data);
    const feeds = this.outgoing(n.id, port).map((c) => this.node(c.target)?.type ?? '');
    const name = port.toLowerCase();
    const x12 = /835|remit/.test(name) ? '835' : /837|claim/.test(name) ? '837' : undefined;
    if (parses('hl7') || /hl7|adt|oru|message/.test(name)) return { type, kind: 'hl7' };
    if (parses('x12') || /x12|edi|claim|remit|83[57]/.test(name)) return { type, kind: 'x12', ...(x12 ? { x12 } : { x12: '837' }) };
    if (parses('csv') || /csv/.test(name)) return { type, kind: 'csv' };
    if (type === 'fhir-bundle') return { type, kind: 'fhir', bundle: 'collection' };
    if (feeds.some((t) => doesJob(t, 'ai')) || /note|text|narrative/.test(name)) return { type, kind: 'note' };
    if (/bundle|resource|fhir|patient/.test(name) || feeds.some((t) => BEHAVIORS[t]?.madeFor === 'fhir'))
      return { type, kind: 'fhir', ...(/bundle/.test(name) ? { bundle: 'collection' } : {}) };
    return { type, kind: 'json' };
  }

  point(flows: Map<string, Flow>, node: string, port: string): Point {
    const p = this.node(node)!.position;
    return {
      node,
      port,
      flow: flows.get(`${node}.${port}`) ?? { type: this.outputType(node, port) ?? 'any', kind: 'json' },
      col: Math.round(p.x / 260),
      row: Math.round(p.y / 150),
    };
  }

  freeId(type: string, base?: string): string {
    const b = base ?? idBase(type);
    let id = b;
    for (let i = 2; this.node(id); i++) id = `${b}_${i}`;
    return id;
  }

  add(type: string, config: Record<string, unknown>, near: { x: number; y: number }, opts: { id?: string; name?: string } = {}): string {
    const id = opts.id && !this.node(opts.id) ? opts.id : this.freeId(type, opts.id);
    let pos = { x: near.x, y: near.y };
    while (this.def.nodes.some((n) => Math.abs(n.position.x - pos.x) < 120 && Math.abs(n.position.y - pos.y) < 60)) pos = { x: pos.x, y: pos.y + 150 };
    const retry = getNodeDescriptor(type)?.side_effect === 'write' ? { settings: { retry: { max_attempts: 3, backoff_ms: 1000 } } } : {};
    this.def.nodes.push({ id, type, config, position: pos, ...(opts.name ? { name: opts.name } : {}), ...retry });
    return id;
  }

  connect(source: string, source_port: string, target: string, target_port: string): void {
    if (!this.def.connections.some((c) => c.source === source && c.source_port === source_port && c.target === target && c.target_port === target_port)) {
      this.def.connections.push({ source, source_port, target, target_port });
    }
  }

  disconnect(c: PipelineConnection): void {
    this.def.connections = this.def.connections.filter(
      (x) => !(x.source === c.source && x.source_port === c.source_port && x.target === c.target && x.target_port === c.target_port),
    );
  }

  remove(id: string): void {
    this.def.nodes = this.def.nodes.filter((n) => n.id !== id);
    this.def.connections = this.def.connections.filter((c) => c.source !== id && c.target !== id);
  }

  label(id: string): string {
    const n = this.node(id);
    return n ? `${n.id} (${n.name ?? getNodeDescriptor(n.type)?.name ?? n.type})` : id;
  }
}

export const isTrigger = (type: string) => Boolean(getNodeDescriptor(type)?.trigger);
export const isWrite = (type: string) => getNodeDescriptor(type)?.side_effect === 'write';
export const isSink = (type: string) => BEHAVIORS[type]?.role === 'sink';
