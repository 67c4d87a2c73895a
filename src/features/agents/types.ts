import type { RouterOutputs } from '@/trpc/react';

export type Agent = RouterOutputs['agents']['get'];
export type AgentVersion = RouterOutputs['agents']['versions']['versions'][number];
export type AssignedTool = RouterOutputs['agents']['tools']['tools'][number];
export type Tool = RouterOutputs['tools']['list']['tools'][number];
export type StoredMessage = RouterOutputs['agents']['conversation']['messages'][number];
export type Conversation = RouterOutputs['agents']['conversations']['conversations'][number];

/** One step of an agent's reasoning: a thought, or a tool call with its result (`pending` while it runs). */
export type Step = { type: 'thinking'; content: string } | { type: 'tool_call'; tool: string; params: unknown; result?: unknown; pending?: boolean };

/** A message as the playground shows it: stored, or still streaming in. */
export interface ChatMessage {
  key: string;
  role: 'user' | 'assistant';
  content: string;
  steps: Step[];
  status: 'streaming' | 'complete' | 'failed' | 'interrupted';
  error?: string | null;
}
