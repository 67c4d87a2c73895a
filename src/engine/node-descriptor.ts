import type { z } from 'zod';
import type { PipelineDefinition } from '@/shared/pipeline';
import { PORT_TYPES, type PortType } from '@/shared/ports';
import type { NodePlan } from './node-plan';

/**
 * What a node type is, apart from how it runs: the one source of truth that the catalog, the editor, the
 * validator and the copilot read. Isomorphic (the browser imports it): no server-only code here. How a
 * node runs is its `<id>.execute.ts` beside the descriptor (see `node-type.ts`).
 */

export type { PortType };

const PORT_TYPE_SET: ReadonlySet<string> = new Set(PORT_TYPES);

export interface PortSpec {
  name: string;
  type: PortType;
  description?: string;
  /** A node runs once all its required inputs have values; optional inputs may stay empty. */
  optional?: boolean;
}

export interface NodePorts {
  inputs: PortSpec[];
  outputs: PortSpec[];
}

export type Category = 'healthcare' | 'ai' | 'data' | 'output' | 'control' | 'claims';
export type SideEffect = 'none' | 'read' | 'write';

/** How the config form edits a field (the default follows the field's JSON Schema type). */
export type Widget = 'json' | 'code' | 'expression' | 'textarea' | 'connector' | 'agent' | 'cron';

export interface FieldHint {
  title?: string;
  widget?: Widget;
  placeholder?: string;
  /** With the `connector` widget: the connector type to pick from. */
  connectorType?: 'fhir' | 'hl7-mllp' | 'http' | 'postgres' | 'smtp';
}

/** Host services a node may ask for (`NodeServices` in node-type.ts); the catalog lists them. */
export type ServiceName = 'fetch';

/** Something outside that starts an execution, as its trigger node receives it. */
export type TriggerEvent =
  | { kind: 'manual'; inputs: Record<string, unknown> }
  | { kind: 'schedule'; at: string }
  | { kind: 'webhook'; body: unknown; headers: Record<string, string>; query: Record<string, string> }
  | { kind: 'mllp'; message: string; remoteAddress: string; receivedAt: string }
  /** A production run of another pipeline failed, and this pipeline is its error pipeline (services/alerts). */
  | { kind: 'error'; event: Record<string, unknown> };

export type TriggerEventKind = TriggerEvent['kind'];

export interface TriggerSpec<Cfg> {
  /**
   * The outside events that start a deployed pipeline with this trigger, besides an execute request
   * (which any trigger takes: API, editor, retry, step).
   */
  events: Exclude<TriggerEventKind, 'manual'>[];
  /** The execution's inputs for an event. */
  toInputs(event: TriggerEvent, config: Cfg): Record<string, unknown>;
  /** Inputs to start a test run with (the editor's run dialog fills them in). */
  sampleInputs(config: Cfg): Record<string, unknown>;
}

export interface NodeDescriptor<C extends z.ZodType = z.ZodType> {
  id: string;
  name: string;
  /** The id a new node of this type gets in a pipeline the copilot writes (then _2, _3…); default: the type id with underscores. */
  idBase?: string;
  category: Category;
  description: string;
  version: string;
  keywords: string[];
  side_effect: SideEffect;
  /**
   * Markdown prose: what the node does, how, and examples. The Ports, Config and Errors sections of the
   * node's documentation are generated from the rest of the descriptor (node-docs.ts).
   */
  documentation: string;
  config: C;
  /** A config that shows the node at work; the catalog shows its ports, tests walk it, the copilot starts from it. */
  example: z.input<C>;
  /** The node's ports for a (parsed) config. */
  ports(config: z.infer<C>): NodePorts;
  /** How the ports follow the config, when they do (shown under Ports in the docs). */
  portsNote?: string;
  /** Config form hints: field titles and widgets, and the order fields are shown in. */
  ui?: { order?: string[]; fields?: Record<string, FieldHint> };
  /** Error codes the node fails with (besides the engine's own: TIMEOUT, CANCELLED…), and when. */
  errors: Record<string, string>;
  /**
   * The config field holding HTTP headers (name → value) a user may type credentials into: the API masks its
   * credential headers (`••••1234`) and puts the stored values back when a masked one is sent back.
   */
  credentialHeaders?: string;
  /** Host services the node uses while it runs. */
  services?: ServiceName[];
  /** A trigger starts an execution; exactly one is needed per pipeline. */
  trigger?: TriggerSpec<z.infer<C>>;
  /** What reaches this node becomes one of the execution's `outputs`. */
  output?: boolean;
  /**
   * Pipelines nested in the config (a for-each body), so the validator checks them with the outer one.
   * `triggers` lists the trigger types the nested pipeline may start with.
   */
  subgraphs?(config: z.infer<C>): { field: string; definition: PipelineDefinition; triggers: string[] }[];
  /** What the copilot's planner reads of the node (node-plan.ts); without it the planner never places the node. */
  plan?: NodePlan;
}

/** Declares a node type's descriptor with its id and config type inferred (one call per node file). */
export function describeNode<const Id extends string, C extends z.ZodType>(descriptor: NodeDescriptor<C> & { id: Id }): NodeDescriptor<C> & { id: Id } {
  return descriptor;
}

/** Codes the engine itself gives a node's failure, whatever its type. */
export const ENGINE_NODE_ERRORS: Record<string, string> = {
  TIMEOUT: 'the node did not finish within its time limit (settings.timeout_ms)',
  CANCELLED: 'the execution was cancelled while the node ran',
  INVALID_NODE: 'the node has an unknown type or an invalid config',
  NODE_FAILED: 'an unexpected failure inside the node',
};

/**
 * A node's ports for a config as the editor holds it, which may not parse yet (a field being typed): the
 * ports of the parsed config when it parses; otherwise of the raw config laid over the example, as far
 * as that gives well-formed ports; otherwise the example's. Never throws.
 */
export function portsOf(d: NodeDescriptor, config: unknown): NodePorts {
  const parsed = d.config.safeParse(config ?? {});
  if (parsed.success) return d.ports(parsed.data);
  const example = d.config.safeParse(d.example);
  if (!example.success) return { inputs: [], outputs: [] };
  try {
    const raw = config && typeof config === 'object' ? config : {};
    const ports = d.ports({ ...(example.data as object), ...raw });
    if (wellFormed(ports.inputs) && wellFormed(ports.outputs)) return ports;
  } catch {
    // the raw config does not fit the node's port rules yet
  }
  return d.ports(example.data);
}

function wellFormed(ports: unknown): ports is PortSpec[] {
  if (!Array.isArray(ports)) return false;
  const names = new Set<string>();
  for (const p of ports as PortSpec[]) {
    if (typeof p?.name !== 'string' || p.name === '' || names.has(p.name) || !PORT_TYPE_SET.has(p.type)) return false;
    names.add(p.name);
  }
  return true;
}
