import type { z } from 'zod';
import type { PipelineDefinition } from '@/shared/pipeline';
import type { PortType } from '@/shared/ports';

export type { PortType };

export interface PortSpec {
  name: string;
  type: PortType;
  description?: string;
  /** A node runs once all its required inputs have values; optional inputs may stay empty. */
  optional?: boolean;
}

export type Category = 'healthcare' | 'ai' | 'data' | 'output' | 'control' | 'claims';
export type SideEffect = 'none' | 'read' | 'write';

export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  time: string;
}

/** What a node may use while it runs. Everything outside the process comes in through here. */
export interface NodeContext {
  executionId: string;
  nodeId: string;
  /** Test mode: nodes with `side_effect: write` must not call out; they return the payload they would send. */
  testMode: boolean;
  /** The execution's `inputs` (what the trigger emits). */
  executionInputs: Record<string, unknown>;
  /** `${executionId}:${nodeId}` — send it with every write so a re-run never writes twice. */
  idempotencyKey: string;
  signal: AbortSignal;
  log(level: LogEntry['level'], message: string): void;
  /** Runs a nested definition (for-each bodies) with the given trigger inputs; returns its outputs. */
  runSubgraph(definition: PipelineDefinition, inputs: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Outside services (HTTP fetch, connectors…) the host provides. */
  services: NodeServices;
}

export interface NodeServices {
  fetch: typeof fetch;
}

/** One value per output port that fired; ports left out fired nothing (their branch is skipped). */
export interface NodeResult {
  outputs: Record<string, unknown>;
  /** A write node in test mode: what it would have sent. */
  simulated?: boolean;
  /** A value for the execution's `outputs` (pipeline-output nodes). */
  emit?: { key: string; value: unknown };
}

export interface NodeType<C extends z.ZodType = z.ZodType> {
  id: string;
  name: string;
  category: Category;
  description: string;
  version: string;
  keywords: string[];
  side_effect: SideEffect;
  /** Markdown shown in the catalog and the editor. */
  documentation: string;
  config: C;
  inputs(config: z.infer<C>): PortSpec[];
  outputs(config: z.infer<C>): PortSpec[];
  /** A trigger starts an execution; exactly one is needed per pipeline. */
  trigger?: boolean;
  /**
   * Pipelines nested in the config (a for-each body), so the validator checks them with the outer one.
   * `triggers` lists the trigger types the nested pipeline may start with.
   */
  subgraphs?(config: z.infer<C>): { field: string; definition: PipelineDefinition; triggers: string[] }[];
  execute(ctx: NodeContext, inputs: Record<string, unknown>, config: z.infer<C>): Promise<NodeResult>;
}

/** Declares a node type with its config type inferred (one call per node file). */
export function defineNode<C extends z.ZodType>(node: NodeType<C>): NodeType<C> {
  return node;
}

export class NodeError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'NodeError';
  }
}
