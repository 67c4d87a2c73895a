import type { Socket } from 'node:net';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { z } from 'zod';
import type { HttpExchange } from '@/shared/http-exchange';
import type { PipelineDefinition } from '@/shared/pipeline';
import type { NodeDescriptor } from './node-descriptor';

export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  time: string;
}

/** Outside services (HTTP fetch, connectors…) the host lends a running node (see `nodeServices()`). */
export interface NodeServices {
  /** The running pipeline's organization: host resources (the code sandbox's workers) are shared fairly between them */
  tenant: string;
  fetch: typeof fetch;
  /**
   * The same outbound calls as `fetch` (policy, time limit, size cap), as a plain exchange: no web Request/Response,
   * the answer's body read whole. For nodes that send and read whole bodies (the FHIR client): cheaper per call.
   */
  request: HttpExchange;
  /**
   * A 32-byte secret key of the running pipeline's organization for `purpose` (e.g. `deidentify`): the
   * same in every run and process, different for every organization and purpose, never shown to anyone.
   */
  orgKey(purpose: string): Promise<Uint8Array>;
  /**
   * One of the running pipeline's organization's connectors, by id or name, with its credentials decrypted:
   * for use inside this call only, never to be logged, returned in outputs or stored. Fails with a NodeError
   * (`CONNECTOR_NOT_FOUND`, or `CONNECTOR_TYPE_MISMATCH` when it is not of `type`).
   */
  connector(ref: string, type: ConnectorType): Promise<ConnectorHandle>;
  /**
   * A TCP connection to host:port under the outbound policy (the host resolved and every address checked,
   * a time limit), for protocols that are not HTTP (MLLP, Postgres). Fails with a NodeError
   * (`OUTBOUND_REFUSED`, `OUTBOUND_TIMEOUT`, `OUTBOUND_FAILED`) that says what happened.
   */
  connect(options: TcpConnectOptions): Promise<Socket>;
  /**
   * The language model `id` (`clinflow/offline`, `openai/gpt-4o-mini`…, GET /api/llm-models). Fails with a
   * NodeError `MODEL_UNAVAILABLE` naming the env variable to set when it is unknown or not configured.
   */
  languageModel(id: string): LanguageModelV4;
  /**
   * Runs one turn of the organization's agent `id` on `input` (its deployed configuration; in test mode an active
   * agent too, and its tools do not write: pipelines run in test mode, HTTP tools other than GET are not sent).
   * Fails with a NodeError (`AGENT_NOT_FOUND`, `AGENT_NOT_DEPLOYED`, `MODEL_UNAVAILABLE`, `LLM_FAILED`…).
   */
  agent(id: string, input: Record<string, unknown>, options: { testMode: boolean }): Promise<AgentAnswer>;
  /** Records one language model call of a node (tokens, latency) with the organization's usage; never fails. */
  modelCall(call: { model: string; input_tokens: number; output_tokens: number; latency_ms: number }): void;
  /**
   * One of the running pipeline's organization's `limit` slots named `name` (the 5 running bulk exports), shared by
   * every process: its release, or null when none is free by `waitUntil` (epoch ms; at once when absent) or the
   * signal aborts. Release it when the work ends, however it ends.
   */
  slot(name: string, limit: number, options: { signal: AbortSignal; waitUntil?: number }): Promise<(() => Promise<void>) | null>;
}

/** What an agent answered (see `NodeServices.agent`). */
export interface AgentAnswer {
  output: string;
  reasoning_steps: unknown[];
  conversation_id: string;
  usage: { model: string; input_tokens: number; output_tokens: number; total_tokens: number; latency_ms: number };
}

export interface TcpConnectOptions {
  host: string;
  port: number;
  /** TLS over the connection, the certificate verified against `host` (extra CAs in PEM may be given). */
  tls?: boolean | { ca?: string };
  /** Give up connecting after this many milliseconds (default: OUTBOUND_TIMEOUT_MS). */
  timeoutMs?: number;
}

export type ConnectorType = 'fhir' | 'hl7-mllp' | 'http' | 'postgres' | 'smtp';

/** A connector as a running node sees it (see `NodeServices.connector`). */
export interface ConnectorHandle {
  id: string;
  name: string;
  type: ConnectorType;
  /** The external system's address: a base URL (fhir, http), `host:port` (hl7-mllp, smtp), a connection string without its password (postgres) */
  endpoint: string;
  /** The type's settings (JSON Schema in `GET /api/connectors/types`), secrets excluded */
  config: Record<string, unknown>;
  /** Decrypted secrets (auth): never log, output or store them */
  credentials: Record<string, unknown>;
  /** Changes when the connector is updated: cache keys (e.g. OAuth2 tokens) include it */
  updatedAt: string;
}

/** What a node may use while it runs. Everything outside the process comes in through here. */
export interface NodeContext {
  executionId: string;
  nodeId: string;
  /** Test mode: nodes with `side_effect: write` must not call out; they return the payload they would send. */
  testMode: boolean;
  /** The execution's `inputs` (what the trigger emits). */
  executionInputs: Record<string, unknown>;
  /** `${executionId}:${nodeId}` (a retry's: its first original's id) — send it with every write so a re-run never writes twice. */
  idempotencyKey: string;
  signal: AbortSignal;
  log(level: LogEntry['level'], message: string): void;
  /** Runs a nested definition (for-each bodies) with the given trigger inputs; returns its outputs. */
  runSubgraph(definition: PipelineDefinition, inputs: Record<string, unknown>): Promise<Record<string, unknown>>;
  /**
   * Whether anything will read the output `port`: a connection from it, the run's records (test mode, the `full`
   * policy, a run that keeps its payloads) or a caller waiting for the execution's outputs. False lets a node skip
   * work only that output needs (fhir-write asks the server for a minimal answer). True when in doubt.
   */
  outputRead(port: string): boolean;
  /**
   * The types of the nodes that connections from output `port` feed (disabled nodes, which pass their input on, as
   * `disabled`), or undefined when not known. Lets a node skip work only some readers need (fhir-validate's memo).
   */
  outputTargets?(port: string): readonly string[] | undefined;
  services: NodeServices;
}

/** One value per output port that fired; ports left out fired nothing (their branch is skipped). */
export interface NodeResult {
  outputs: Record<string, unknown>;
  /** A write node in test mode: what it would have sent. */
  simulated?: boolean;
  /** A value for the execution's `outputs` (nodes whose descriptor says `output`). */
  emit?: { key: string; value: unknown };
}

/** The pipeline a trigger serves. */
export interface TriggerTarget {
  pipelineId: string;
  orgId: string;
}

/** What the host offers triggers that listen for outside events while their pipeline is deployed. */
export interface TriggerHost {
  /** Runs the pipeline on a cron schedule (one schedule per pipeline; a second call replaces the first). */
  schedule(target: TriggerTarget, cron: string, timezone: string): Promise<void>;
  unschedule(target: TriggerTarget): Promise<void>;
  /**
   * Listens for HL7 v2 messages over MLLP for the pipeline (one listener per pipeline; a second call
   * replaces the first). Each message becomes a `{kind: 'mllp'}` trigger event of the deployed pipeline,
   * acknowledged as `options.ack_mode` says. Fails with a readable error when the port cannot be opened.
   */
  listen(target: TriggerTarget, options: MllpListenOptions): Promise<void>;
  /** Closes the pipeline's listener, if it has one. */
  unlisten(target: TriggerTarget): Promise<void>;
}

export interface MllpListenOptions {
  port: number;
  encoding: 'utf8' | 'latin1' | 'ascii';
  /** stored: AA once the execution is stored (it runs on); completed: AA or AE once it has run. */
  ack_mode: 'stored' | 'completed';
  /** Whose messages run in the order received (ack_mode stored): a connection's (its sender's), or each patient's. */
  order: 'connection' | 'patient';
  /** Sender addresses or CIDR ranges allowed to connect; empty: anyone. */
  allowed_senders: string[];
}

/** How a node runs: server-only (it may use Node APIs, sandboxes, drivers). */
export interface NodeImplementation<C extends z.ZodType = z.ZodType> {
  execute(ctx: NodeContext, inputs: Record<string, unknown>, config: z.infer<C>): Promise<NodeResult>;
  /** A trigger's deploy: start listening (register the schedule, open the port). */
  activate?(host: TriggerHost, target: TriggerTarget, config: z.infer<C>): Promise<void>;
  /** A trigger's undeploy (or its pipeline changed trigger): stop listening. Safe to call when not active. */
  deactivate?(host: TriggerHost, target: TriggerTarget): Promise<void>;
}

/** A node type as the engine runs it: its descriptor and its implementation. */
export type NodeType<C extends z.ZodType = z.ZodType> = NodeDescriptor<C> & NodeImplementation<C>;

/** Joins a descriptor with how it runs (one call per `<id>.execute.ts`). */
export function implementNode<const Id extends string, C extends z.ZodType>(
  descriptor: NodeDescriptor<C> & { id: Id },
  implementation: NodeImplementation<C>,
): NodeType<C> & { id: Id } {
  return { ...descriptor, ...implementation };
}
