import { z } from 'zod';
import { Paging } from '../pipelines/pipeline.schema';
import { NO_NUL, storable } from '../storable';
import { Tool } from '../tools/tool.schema';

export const TAGS = ['Agents'];
const Text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !s.includes('\u0000'), NO_NUL);
const bool = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());

export const AgentId = z.object({ id: z.string().describe('Agent UUID') });

export const ModelConfig = z.object({
  model: z.string().min(1).max(200).describe('A language model id from GET /api/llm-models (default clinflow/offline)'),
  temperature: z.number().min(0).max(2).describe('0 to 2 (default 0.2)'),
  max_tokens: z.number().int().min(1).max(200_000).describe('Most tokens in an answer (default 1024)'),
});

const AgentFields = {
  name: Text(200).pipe(z.string().trim().min(1, 'name must not be empty')),
  agent_type: Text(64).pipe(z.string().trim().min(1)).describe('e.g. summarizer, clinical, fhir, claims, hl7, custom'),
  description: Text(5000),
  model_config: ModelConfig.partial(),
  prompt_template: Text(50_000).describe("The message as the model gets it; {{input}} is the message, {{field}} a field of an invocation's input_data"),
  instructions: Text(50_000).describe('Instructions the model gets before the conversation (system prompt)'),
  tools: z.array(z.string().min(1).max(200)).max(50).describe('Tool ids: built-in tool names or custom tool ids (GET /api/tools)'),
  project_id: Text(200).nullable(),
};

const OptionalFields = z.object(AgentFields).partial();

export const CreateAgentInput = OptionalFields.extend({
  template_id: z.string().optional().describe('A base template to copy: fields not given come from it'),
  is_active: z.boolean().optional(),
});

export const UpdateAgentInput = AgentId.extend(OptionalFields.shape).extend({
  is_active: z.boolean().optional().describe('false retires the agent (status inactive); true brings it back'),
});

export const ListAgentsInput = z.object({
  ...Paging,
  base_templates: bool.optional().describe('true returns only the built-in base templates'),
  type: z.string().max(64).optional().describe('Agent type filter'),
  is_active: bool.optional(),
  project_id: z.string().max(200).optional(),
});

export const Agent = z.object({
  id: z.string(),
  name: z.string(),
  agent_type: z.string(),
  description: z.string(),
  status: z.enum(['active', 'deployed', 'inactive']),
  model_config: ModelConfig,
  prompt_template: z.string(),
  instructions: z.string(),
  tools: z.array(z.string()),
  is_active: z.boolean(),
  is_template: z.boolean(),
  project_id: z.string().nullable(),
  template_id: z.string().nullable(),
  version: z.number().int().describe('Latest version snapshot (0: none)'),
  deployed_at: z.string().nullable(),
  created_at: z.string().nullable(),
  updated_at: z.string().nullable(),
});

export const AgentList = z.object({ agents: z.array(Agent), total_count: z.number().int() });

const Step = z.union([
  z.object({ type: z.literal('thinking'), content: z.string() }),
  z.object({ type: z.literal('tool_call'), tool: z.string(), params: z.unknown(), result: z.unknown() }),
]);

export const Usage = z.object({ model: z.string(), input_tokens: z.number(), output_tokens: z.number(), total_tokens: z.number(), latency_ms: z.number() });

const Message = Text(100_000).pipe(z.string().min(1, 'message must not be empty'));

export const ChatInput = AgentId.extend({
  message: Message,
  stream: z.boolean().default(false).describe('true: answer with Server-Sent Events (thinking, tool_call, tool_result, message, done)'),
  conversation_id: z
    .string()
    .optional()
    .describe('Continue this conversation (default: a new one; its id comes back, and in the X-Conversation-ID header of a stream)'),
  version: z.number().int().min(1).optional().describe('Run this version snapshot of the agent instead of its current configuration'),
});

export const ChatOutput = z.object({
  response: z.string(),
  reasoning_steps: z.array(Step),
  conversation_id: z.string(),
  message_id: z.string(),
  usage: Usage,
});

export const InvokeInput = AgentId.extend({
  input_data: z
    .record(z.string(), z.unknown())
    .describe('The input: its message, input or text field (or its only string) is the message; every field is a {{field}} of the prompt template'),
  conversation_id: z.string().optional(),
});

export const InvokeOutput = z.object({ agent_id: z.string(), output: z.string(), reasoning_steps: z.array(Step), conversation_id: z.string(), usage: Usage });

export const ConversationIds = AgentId.extend({ cid: z.string().describe('Conversation UUID') });

export const Conversation = z.object({
  id: z.string(),
  agent_id: z.string(),
  title: z.string(),
  source: z.enum(['chat', 'invoke', 'pipeline']),
  message_count: z.number().int(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const StoredMessage = z.object({
  id: z.string(),
  conversation_id: z.string(),
  seq: z.number().int(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  reasoning_steps: z.array(Step),
  status: z.enum(['complete', 'failed', 'interrupted']),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  model: z.string().nullable(),
  agent_version: z.number().int().nullable(),
  usage: z.object({ input_tokens: z.number(), output_tokens: z.number(), latency_ms: z.number() }).nullable(),
  created_at: z.string(),
});

export const ConversationList = z.object({ conversations: z.array(Conversation), total_count: z.number().int() });
export const ConversationWithMessages = Conversation.extend({ messages: z.array(StoredMessage) });
export const MessageList = z.object({ messages: z.array(StoredMessage), total_count: z.number().int() });
export const ListConversationsInput = AgentId.extend(Paging);
export const CreateConversationInput = AgentId.extend({ title: Text(200).optional() });

/** The message is `message`, as chat takes it (spec); `content`, the stored message's field, is accepted as an alias. */
export const SendMessageInput = ConversationIds.extend({
  message: Message.optional().describe('The message (as chat takes it)'),
  content: Message.optional().describe('Alias of message'),
  stream: z.boolean().default(false).describe('true: answer with Server-Sent Events, as chat does'),
  version: z.number().int().min(1).optional(),
}).superRefine((v, ctx) => {
  if (v.message === undefined && v.content === undefined) ctx.addIssue({ code: 'custom', path: ['message'], message: 'required: the message to send' });
  else if (v.message !== undefined && v.content !== undefined && v.message !== v.content) {
    ctx.addIssue({ code: 'custom', path: ['content'], message: 'give the message once: content is an alias of message, and they differ' });
  }
});

/** The text a send-message body carries (the schema made sure it has one). */
export const sentText = (input: { message?: string; content?: string }): string => (input.message ?? input.content)!;

export const AssignedTool = Tool.extend({ config: z.record(z.string(), z.unknown()).describe('Its settings on this agent') });
export const AssignedToolList = z.object({ tools: z.array(AssignedTool), total_count: z.number().int() });
export const AssignToolInput = AgentId.extend({
  tool_id: z.string().min(1).max(200).describe('A built-in tool name or a custom tool id or name'),
  config: storable(z.record(z.string(), z.unknown()))
    .optional()
    .describe('Settings for the tool on this agent, per its config_schema (e.g. {"connector": "hapi"} for fhir_search)'),
});
export const RemoveToolInput = AgentId.extend({ toolId: z.string() });

export const Version = z.object({
  agent_id: z.string(),
  version: z.number().int(),
  note: z.string(),
  config: z.object({
    name: z.string(),
    agent_type: z.string(),
    description: z.string(),
    model_config: ModelConfig,
    prompt_template: z.string(),
    instructions: z.string(),
    tools: z.array(z.string()),
  }),
  tool_settings: z.record(z.string(), z.record(z.string(), z.unknown())),
  created_by: z.string().nullable(),
  created_at: z.string(),
});
export const VersionList = z.object({ versions: z.array(Version), total_count: z.number().int() });
export const CreateVersionInput = AgentId.extend({ note: Text(500).optional().describe('What changed') });
