import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { conversations, messages } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { isUuid, type ServiceContext } from '../context';
import { findAgentRow } from './find-agent';

type ConversationRow = typeof conversations.$inferSelect;
type MessageRow = typeof messages.$inferSelect;

export function messageView(m: MessageRow) {
  return {
    id: m.id,
    conversation_id: m.conversationId,
    seq: m.seq,
    role: m.role,
    content: m.content,
    reasoning_steps: m.steps,
    status: m.status,
    error: m.error ?? null,
    model: m.model,
    agent_version: m.agentVersion,
    usage: m.role === 'assistant' ? { input_tokens: m.inputTokens ?? 0, output_tokens: m.outputTokens ?? 0, latency_ms: m.latencyMs ?? 0 } : null,
    created_at: m.createdAt.toISOString(),
  };
}

export function conversationView(c: ConversationRow, messageCount: number) {
  return {
    id: c.id,
    agent_id: c.agentId,
    title: c.title,
    source: c.source,
    message_count: messageCount,
    created_by: c.createdBy,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}

const notFound = (id: string) => new AppError('CONVERSATION_NOT_FOUND', `Conversation ${id} was not found.`);

/** The caller's conversation `cid` of agent `agentId` (another organization's or agent's is "not found"). */
export async function findConversation(ctx: ServiceContext, agentId: string, cid: string): Promise<ConversationRow> {
  if (!isUuid(cid) || !isUuid(agentId)) throw notFound(cid);
  const [row] = await ctx.db
    .select()
    .from(conversations)
    .where(and(eq(conversations.id, cid), eq(conversations.agentId, agentId), eq(conversations.orgId, ctx.principal.orgId)))
    .limit(1);
  if (!row) throw notFound(cid);
  return row;
}

const messageCount = sql<number>`(select count(*)::int from messages m where m.conversation_id = "conversations"."id")`;

export async function listConversations(ctx: ServiceContext, agentId: string, page: { limit: number; offset: number }) {
  const agent = await findAgentRow(ctx, agentId);
  const where = and(eq(conversations.agentId, agent.id), eq(conversations.orgId, ctx.principal.orgId));
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select({ c: conversations, n: messageCount })
      .from(conversations)
      .where(where)
      .orderBy(desc(conversations.updatedAt), desc(conversations.id))
      .limit(page.limit)
      .offset(page.offset),
    ctx.db.select({ n: count() }).from(conversations).where(where),
  ]);
  return { conversations: rows.map((r) => conversationView(r.c, r.n)), total_count: total?.n ?? 0 };
}

export async function createConversation(ctx: ServiceContext, agentId: string, input: { title?: string; source?: ConversationRow['source'] }) {
  const agent = await findAgentRow(ctx, agentId);
  const [row] = await ctx.db
    .insert(conversations)
    .values({
      orgId: ctx.principal.orgId,
      agentId: agent.id,
      title: input.title ?? '',
      source: input.source ?? 'chat',
      createdBy: ctx.principal.userId ?? ctx.principal.keyId ?? null,
    })
    .returning();
  return conversationView(row!, 0);
}

export async function conversationMessages(ctx: ServiceContext, conversationId: string) {
  return ctx.db.select().from(messages).where(eq(messages.conversationId, conversationId)).orderBy(asc(messages.seq));
}

/** GET …/conversations/{cid}: the conversation with its messages. */
export async function getConversation(ctx: ServiceContext, agentId: string, cid: string) {
  const c = await findConversation(ctx, agentId, cid);
  const rows = await conversationMessages(ctx, c.id);
  return { ...conversationView(c, rows.length), messages: rows.map(messageView) };
}

export async function listMessages(ctx: ServiceContext, agentId: string, cid: string) {
  const c = await findConversation(ctx, agentId, cid);
  const rows = await conversationMessages(ctx, c.id);
  return { messages: rows.map(messageView), total_count: rows.length };
}

export async function deleteConversation(ctx: ServiceContext, agentId: string, cid: string) {
  const c = await findConversation(ctx, agentId, cid);
  await ctx.db.delete(conversations).where(and(eq(conversations.id, c.id), eq(conversations.orgId, ctx.principal.orgId)));
}
