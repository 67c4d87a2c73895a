import { z } from 'zod';
import { hasScope } from '@/server/auth/scopes';
import { executeProcedure, publicProcedure, readProcedure, router, writeProcedure } from '@/server/api/trpc';
import { AppError } from '@/server/errors';
import { assignTool, listAgentTools, removeTool } from '@/server/services/agents/agent-tools';
import { createAgent, deleteAgent, getAgent, listAgents, updateAgent } from '@/server/services/agents/agents';
import { chat, invokeAgent } from '@/server/services/agents/chat';
import { createConversation, deleteConversation, getConversation, listConversations, listMessages } from '@/server/services/agents/conversations';
import { deployAgent, undeployAgent } from '@/server/services/agents/lifecycle';
import { createVersion, listVersions } from '@/server/services/agents/versions';
import { chatRefusal, consumeChatLimit } from '../../rest/agent-chat';
import * as S from './agent.schema';

/** REST counts agent chat at the edge (rest/handler.ts); the web app's tRPC calls are counted here. */
const chatLimited = executeProcedure.use(async ({ ctx, next }) => {
  if (ctx.channel === 'app') {
    const rate = await consumeChatLimit(ctx.rt, ctx.principal);
    if (!rate.allowed) throw chatRefusal(rate);
  }
  return next();
});

const NOT_FOUND = ['AGENT_NOT_FOUND', 'AGENT_TEMPLATE_READ_ONLY'] as const;
const RUN = ['MODEL_UNAVAILABLE', 'AGENT_INACTIVE', 'AGENT_VERSION_NOT_FOUND', 'CONVERSATION_NOT_FOUND', 'CONVERSATION_BUSY', 'LLM_FAILED', 'AGENT_TIMEOUT'] as const;

const list = readProcedure
  .meta({ openapi: { method: 'GET', path: '/agents', tags: S.TAGS, summary: 'List agents (or, with base_templates=true, the built-in templates)', protect: true } })
  .input(S.ListAgentsInput)
  .output(S.AgentList)
  .query(({ ctx, input }) => listAgents(ctx, input));

const create = writeProcedure
  .meta({ openapi: { method: 'POST', path: '/agents', tags: S.TAGS, summary: 'Create an agent (or copy a base template with template_id)', protect: true }, successStatus: 201, errors: ['MODEL_NOT_FOUND'] })
  .input(S.CreateAgentInput)
  .output(S.Agent)
  .mutation(async ({ ctx, input }) => {
    const agent = await createAgent(ctx, input);
    ctx.response.headers.Location = `/api/agents/${agent.id}`;
    return agent;
  });

const get = readProcedure
  .meta({ openapi: { method: 'GET', path: '/agents/{id}', tags: S.TAGS, summary: 'Agent details (a base template too)', protect: true }, errors: ['AGENT_NOT_FOUND'] })
  .input(S.AgentId)
  .output(S.Agent)
  .query(({ ctx, input }) => getAgent(ctx, input.id));

const update = writeProcedure
  .meta({ openapi: { method: 'PUT', path: '/agents/{id}', tags: S.TAGS, summary: 'Update an agent', protect: true }, errors: [...NOT_FOUND, 'MODEL_NOT_FOUND', 'AGENT_DEPLOYED'] })
  .input(S.UpdateAgentInput)
  .output(S.Agent)
  .mutation(({ ctx, input }) => {
    const { id, ...fields } = input;
    return updateAgent(ctx, id, fields);
  });

const remove = writeProcedure
  .meta({ openapi: { method: 'DELETE', path: '/agents/{id}', tags: S.TAGS, summary: 'Delete an agent that is not deployed, with its conversations', protect: true }, successStatus: 204, errors: [...NOT_FOUND, 'AGENT_DEPLOYED'] })
  .input(S.AgentId)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    await deleteAgent(ctx, input.id);
  });

const deploy = writeProcedure
  .meta({ openapi: { method: 'POST', path: '/agents/{id}/deploy', tags: S.TAGS, summary: 'Deploy: the agent can be invoked publicly and from pipelines (its configuration is kept as a version)', protect: true }, errors: [...NOT_FOUND, 'AGENT_INACTIVE', 'AGENT_INVALID'] })
  .input(S.AgentId)
  .output(S.Agent)
  .mutation(({ ctx, input }) => deployAgent(ctx, input.id));

const undeploy = writeProcedure
  .meta({ openapi: { method: 'POST', path: '/agents/{id}/undeploy', tags: S.TAGS, summary: 'Undeploy: back to active', protect: true }, errors: [...NOT_FOUND, 'AGENT_NOT_DEPLOYED'] })
  .input(S.AgentId)
  .output(S.Agent)
  .mutation(({ ctx, input }) => undeployAgent(ctx, input.id));

const chatWith = chatLimited
  .meta({ openapi: { method: 'POST', path: '/agents/{id}/chat', tags: S.TAGS, summary: 'Chat with an agent; stream: true answers with Server-Sent Events (thinking, tool_call, tool_result, message, done)', description: 'Limited to 60 requests per minute per user or API key. With stream: true the response is text/event-stream: each event is "event: NAME" and "data: JSON"; a failure during the stream is an "error" event carrying the error object, then the stream closes. The turn is saved even if the client goes away.', protect: true }, errors: [...NOT_FOUND, ...RUN] })
  .input(S.ChatInput)
  .output(S.ChatOutput)
  .mutation(({ ctx, input }) => chat(ctx, input.id, input));

/** A key scoped to this agent (`agent/<id>:execute`) or an admin key. */
const invoke = publicProcedure
  .meta({ openapi: { method: 'POST', path: '/v1/agents/{id}/invoke', tags: S.TAGS, summary: 'Invoke a deployed agent (public endpoint; needs a key with scope agent/{id}:execute, or admin)', protect: true }, errors: ['AGENT_NOT_FOUND', 'AGENT_NOT_DEPLOYED', ...RUN] })
  .input(S.InvokeInput)
  .output(S.InvokeOutput)
  .mutation(({ ctx, input }) => {
    if (!ctx.principal) throw ctx.authError ?? new AppError('UNAUTHENTICATED', 'Authentication is required.');
    if (!hasScope(ctx.principal.scopes, `agent/${input.id.toLowerCase()}:execute`)) {
      throw new AppError('FORBIDDEN', `This key cannot invoke agent ${input.id}: it needs the scope agent/${input.id}:execute (or admin).`);
    }
    return invokeAgent({ ...ctx, principal: ctx.principal }, input.id, input);
  });

const conversations = readProcedure
  .meta({ openapi: { method: 'GET', path: '/agents/{id}/conversations', tags: S.TAGS, summary: 'List the agent\'s conversations, most recent first', protect: true }, errors: [...NOT_FOUND] })
  .input(S.ListConversationsInput)
  .output(S.ConversationList)
  .query(({ ctx, input }) => listConversations(ctx, input.id, input));

const startConversation = writeProcedure
  .meta({ openapi: { method: 'POST', path: '/agents/{id}/conversations', tags: S.TAGS, summary: 'Create a conversation', protect: true }, successStatus: 201, errors: [...NOT_FOUND] })
  .input(S.CreateConversationInput)
  .output(S.Conversation)
  .mutation(({ ctx, input }) => createConversation(ctx, input.id, { title: input.title }));

const conversation = readProcedure
  .meta({ openapi: { method: 'GET', path: '/agents/{id}/conversations/{cid}', tags: S.TAGS, summary: 'A conversation with its messages', protect: true }, errors: [...NOT_FOUND, 'CONVERSATION_NOT_FOUND'] })
  .input(S.ConversationIds)
  .output(S.ConversationWithMessages)
  .query(({ ctx, input }) => getConversation(ctx, input.id, input.cid));

const endConversation = writeProcedure
  .meta({ openapi: { method: 'DELETE', path: '/agents/{id}/conversations/{cid}', tags: S.TAGS, summary: 'Delete a conversation and its messages', protect: true }, successStatus: 204, errors: ['CONVERSATION_NOT_FOUND'] })
  .input(S.ConversationIds)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    await deleteConversation(ctx, input.id, input.cid);
  });

const messages = readProcedure
  .meta({ openapi: { method: 'GET', path: '/agents/{id}/conversations/{cid}/messages', tags: S.TAGS, summary: 'The messages of a conversation, with thinking steps and tool calls', protect: true }, errors: ['CONVERSATION_NOT_FOUND'] })
  .input(S.ConversationIds)
  .output(S.MessageList)
  .query(({ ctx, input }) => listMessages(ctx, input.id, input.cid));

const send = chatLimited
  .meta({ openapi: { method: 'POST', path: '/agents/{id}/conversations/{cid}/messages', tags: S.TAGS, summary: 'Send a message: the agent answers with the conversation\'s history (stream: true answers with Server-Sent Events)', description: 'Counts against the agent chat limit (60 per minute per user or API key).', protect: true }, errors: [...NOT_FOUND, ...RUN] })
  .input(S.SendMessageInput)
  .output(S.ChatOutput)
  .mutation(({ ctx, input }) => chat(ctx, input.id, { message: S.sentText(input), conversation_id: input.cid, version: input.version }));

const tools = readProcedure
  .meta({ openapi: { method: 'GET', path: '/agents/{id}/tools', tags: S.TAGS, summary: 'The tools assigned to the agent, with their settings', protect: true }, errors: ['AGENT_NOT_FOUND'] })
  .input(S.AgentId)
  .output(S.AssignedToolList)
  .query(({ ctx, input }) => listAgentTools(ctx, input.id));

const assign = writeProcedure
  .meta({ openapi: { method: 'POST', path: '/agents/{id}/tools', tags: S.TAGS, summary: 'Assign a tool (or change its settings on this agent)', protect: true }, successStatus: 201, errors: [...NOT_FOUND, 'TOOL_NOT_FOUND'] })
  .input(S.AssignToolInput)
  .output(S.AssignedTool)
  .mutation(({ ctx, input }) => assignTool(ctx, input.id, input));

const unassign = writeProcedure
  .meta({ openapi: { method: 'DELETE', path: '/agents/{id}/tools/{toolId}', tags: S.TAGS, summary: 'Remove a tool from the agent', protect: true }, successStatus: 204, errors: [...NOT_FOUND, 'TOOL_NOT_ASSIGNED'] })
  .input(S.RemoveToolInput)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    await removeTool(ctx, input.id, input.toolId);
  });

const versions = readProcedure
  .meta({ openapi: { method: 'GET', path: '/agents/{id}/versions', tags: S.TAGS, summary: 'Version snapshots, newest first', protect: true }, errors: [...NOT_FOUND] })
  .input(S.AgentId)
  .output(S.VersionList)
  .query(({ ctx, input }) => listVersions(ctx, input.id));

const snapshot = writeProcedure
  .meta({ openapi: { method: 'POST', path: '/agents/{id}/versions', tags: S.TAGS, summary: 'Snapshot the agent\'s whole configuration as a new version', protect: true }, successStatus: 201, errors: [...NOT_FOUND] })
  .input(S.CreateVersionInput)
  .output(S.Version)
  .mutation(({ ctx, input }) => createVersion(ctx, input.id, input.note));

/** Agents, their conversations, tools and versions (DESIGN.md §3 Agents; issue 9). */
export const agentsRouter = router({ list, create, get, update, remove, deploy, undeploy, chat: chatWith, invoke, conversations, startConversation, conversation, endConversation, messages, send, tools, assign, unassign, versions, snapshot });
