/**
 * The events of an agent chat stream (spec part 6, POST /api/agents/{id}/chat with stream: true), and `error`
 * before the stream closes when a turn fails mid-way. Shared by the server that sends them and the playground.
 */
export type AgentEvent =
  | { event: 'thinking'; data: { content: string } }
  | { event: 'tool_call'; data: { tool: string; params: unknown } }
  | { event: 'tool_result'; data: { result: unknown } }
  | { event: 'message'; data: { content: string } }
  | { event: 'done'; data: Record<string, never> }
  | { event: 'error'; data: { error: { code: string; message: string; status: number } } };
