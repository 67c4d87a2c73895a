import type { PipelineConnection, PipelineNode } from './pipeline';

/** A finding of the validator or of the copilot's checks. */
export type CopilotFinding = { node_id: string | null; code: string; message: string };
export type CopilotReport = { valid: boolean; errors: CopilotFinding[]; warnings: CopilotFinding[] };

/**
 * The copilot chat stream's events (POST /api/copilot/chat with stream: true; DESIGN: event names are ours):
 * `thinking` {content} for each step it takes, `pipeline` {name?, nodes, connections} for the generated or
 * modified definition, `validation` {valid, errors, warnings} for what was checked, `dry_run` {status, outputs,
 * node_results} when a sample was run, `message` {content} for the answer in words, then `done` {} — or `error`
 * {error} before closing. Shared by the server that sends them and the editor's copilot panel.
 */
export type CopilotEvent =
  | { event: 'thinking'; data: { content: string } }
  | { event: 'pipeline'; data: { name?: string; nodes: PipelineNode[]; connections: PipelineConnection[] } }
  | { event: 'validation'; data: CopilotReport }
  | { event: 'dry_run'; data: unknown }
  | { event: 'message'; data: { content: string } }
  | { event: 'done'; data: Record<string, never> }
  | { event: 'error'; data: { error: { code: string; message: string; status: number } } };
