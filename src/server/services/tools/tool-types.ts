import type { NodeServices } from '@/engine/node-type';
import type { ServiceContext } from '../context';

export type JsonSchemaObject = Record<string, unknown>;

/** What a tool gets when it runs: the caller's organization (and nothing else), its node services, a deadline. */
export interface ToolRunContext {
  ctx: ServiceContext;
  services: NodeServices;
  signal: AbortSignal;
  /** A pipeline's test run: write nothing (pipelines run in test mode; HTTP calls other than GET are described, not sent). */
  testMode: boolean;
}

/** A tool Clinflow ships: its name is its id. `config_schema` is what an assignment to an agent may set. */
export interface BuiltinTool {
  id: string;
  name: string;
  description: string;
  input_schema: JsonSchemaObject;
  config_schema: JsonSchemaObject;
  run(t: ToolRunContext, input: Record<string, unknown>, config: Record<string, unknown>): Promise<unknown>;
}

/** A tool's failure the model (and the person reading the conversation) can understand. */
export class ToolError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
