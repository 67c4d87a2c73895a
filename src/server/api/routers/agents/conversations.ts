import { z } from 'zod';
import { readProcedure, writeProcedure } from '@/server/api/trpc';
import { createConversation, deleteConversation, getConversation, listConversations, listMessages } from '@/server/services/agents/conversations';
import { NOT_FOUND } from './errors';
import * as S from './agent.schema';

export const conversations = readProcedure
  .meta({
    openapi: { method: 'GET', path: '/agents/{id}/conversations', tags: S.TAGS, summary: "List the agent's conversations, most recent first", protect: true },
    errors: [...NOT_FOUND],
  })
  .input(S.ListConversationsInput)
  .output(S.ConversationList)
  .query(({ ctx, input }) => listConversations(ctx, input.id, input));

export const startConversation = writeProcedure
  .meta({
    openapi: { method: 'POST', path: '/agents/{id}/conversations', tags: S.TAGS, summary: 'Create a conversation', protect: true },
    successStatus: 201,
    errors: [...NOT_FOUND],
  })
  .input(S.CreateConversationInput)
  .output(S.Conversation)
  .mutation(({ ctx, input }) => createConversation(ctx, input.id, { title: input.title }));

export const conversation = readProcedure
  .meta({
    openapi: { method: 'GET', path: '/agents/{id}/conversations/{cid}', tags: S.TAGS, summary: 'A conversation with its messages', protect: true },
    errors: [...NOT_FOUND, 'CONVERSATION_NOT_FOUND'],
  })
  .input(S.ConversationIds)
  .output(S.ConversationWithMessages)
  .query(({ ctx, input }) => getConversation(ctx, input.id, input.cid));

export const endConversation = writeProcedure
  .meta({
    openapi: { method: 'DELETE', path: '/agents/{id}/conversations/{cid}', tags: S.TAGS, summary: 'Delete a conversation and its messages', protect: true },
    successStatus: 204,
    errors: ['CONVERSATION_NOT_FOUND'],
  })
  .input(S.ConversationIds)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    await deleteConversation(ctx, input.id, input.cid);
  });

export const messages = readProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/agents/{id}/conversations/{cid}/messages',
      tags: S.TAGS,
      summary: 'The messages of a conversation, with thinking steps and tool calls',
      protect: true,
    },
    errors: ['CONVERSATION_NOT_FOUND'],
  })
  .input(S.ConversationIds)
  .output(S.MessageList)
  .query(({ ctx, input }) => listMessages(ctx, input.id, input.cid));
