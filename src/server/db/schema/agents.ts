import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './orgs';

/** What an agent runs with: the fields a version snapshot keeps (DESIGN.md §3 Agents). */
export interface AgentConfig {
  name: string;
  agent_type: string;
  description: string;
  model_config: { model: string; temperature: number; max_tokens: number };
  prompt_template: string;
  /** Instructions given to the model before the conversation (its system prompt). */
  instructions: string;
  tools: AssignedTool[];
}

/** A tool given to an agent: a built-in tool's name or a custom tool's id, with settings for it (e.g. a connector). */
export interface AssignedTool {
  id: string;
  config: Record<string, unknown>;
}

/** One step of a turn as the spec shows it: a thought, or a tool call with its result. */
export type ReasoningStep = { type: 'thinking'; content: string } | { type: 'tool_call'; tool: string; params: unknown; result: unknown };

export const agents = pgTable(
  'agents',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    agentType: text('agent_type').notNull(),
    description: text('description').notNull().default(''),
    status: text('status', { enum: ['active', 'deployed', 'inactive'] })
      .notNull()
      .default('active'),
    modelConfig: jsonb('model_config').$type<AgentConfig['model_config']>().notNull(),
    promptTemplate: text('prompt_template').notNull(),
    instructions: text('instructions').notNull().default(''),
    tools: jsonb('tools').$type<AssignedTool[]>().notNull().default([]),
    projectId: text('project_id'),
    /** The template it was copied from, if any. */
    templateId: text('template_id'),
    /** Latest version snapshot number (0: none yet). */
    version: integer('version').notNull().default(0),
    createdBy: text('created_by'),
    deployedAt: timestamp('deployed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('agents_org_created_idx').on(t.orgId, t.createdAt, t.id)],
);

/** Immutable snapshots of an agent's whole configuration; chat can run a named one. */
export const agentVersions = pgTable(
  'agent_versions',
  {
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    config: jsonb('config').$type<AgentConfig>().notNull(),
    note: text('note').notNull().default(''),
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.version] })],
);

export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    title: text('title').notNull().default(''),
    /** Who started it: a user id or an API key id. */
    createdBy: text('created_by'),
    source: text('source', { enum: ['chat', 'invoke', 'pipeline'] })
      .notNull()
      .default('chat'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('conversations_agent_updated_idx').on(t.agentId, t.updatedAt)],
);

export const messages = pgTable(
  'messages',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    role: text('role', { enum: ['user', 'assistant'] }).notNull(),
    content: text('content').notNull(),
    /** The assistant's thinking and tool calls with their results, in order. */
    steps: jsonb('steps').$type<ReasoningStep[]>().notNull().default([]),
    status: text('status', { enum: ['complete', 'failed', 'interrupted'] })
      .notNull()
      .default('complete'),
    error: jsonb('error').$type<{ code: string; message: string }>(),
    model: text('model'),
    agentVersion: integer('agent_version'),
    inputTokens: integer('input_tokens'),
    outputTokens: integer('output_tokens'),
    latencyMs: integer('latency_ms'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('messages_conversation_seq_idx').on(t.conversationId, t.seq)],
);

/** Custom tools an organization defines: an input JSON Schema and an implementation (HTTP via a connector, or a pipeline). */
export const tools = pgTable(
  'tools',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    inputSchema: jsonb('input_schema').$type<Record<string, unknown>>().notNull(),
    implementation: jsonb('implementation').$type<Record<string, unknown>>().notNull(),
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('tools_org_name_idx').on(t.orgId, t.name)],
);

/** One row per language model call (chat, invoke, nodes, copilot): tokens and latency for insights and stats. */
export const modelCalls = pgTable(
  'model_calls',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id'),
    conversationId: uuid('conversation_id'),
    source: text('source', { enum: ['chat', 'invoke', 'pipeline', 'copilot'] }).notNull(),
    model: text('model').notNull(),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    latencyMs: integer('latency_ms').notNull(),
    toolCalls: integer('tool_calls').notNull().default(0),
    ok: boolean('ok').notNull(),
    errorCode: text('error_code'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('model_calls_org_agent_created_idx').on(t.orgId, t.agentId, t.createdAt)],
);
