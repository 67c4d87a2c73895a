import { and, asc, eq, sql } from 'drizzle-orm';
import { compileSchema } from '@/engine/lib/json-schema';
import { agents, connectors, pipelines, tools } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { isUuid, type ServiceContext } from '../context';
import { BUILTIN_TOOLS, builtinTool } from './builtin';
import type { ToolImplementation } from './custom-run';

type Row = typeof tools.$inferSelect;

export interface ToolInput {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
  implementation: ToolImplementation;
}

const builtinView = (t: (typeof BUILTIN_TOOLS)[number]) => ({
  id: t.id,
  name: t.id,
  title: t.name,
  description: t.description,
  builtin: true,
  input_schema: t.input_schema,
  config_schema: t.config_schema,
  implementation: null,
  created_at: null,
  updated_at: null,
});

export function toolView(row: Row) {
  return {
    id: row.id,
    name: row.name,
    title: row.name,
    description: row.description,
    builtin: false,
    input_schema: row.inputSchema,
    config_schema: { type: 'object', properties: {} },
    implementation: row.implementation,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export type ToolView = ReturnType<typeof toolView>;

const notFound = (id: string) => new AppError('TOOL_NOT_FOUND', `Tool ${id} was not found.`);

function invalid(path: string, message: string): never {
  throw new AppError('VALIDATION_FAILED', `The tool is not valid: ${path}: ${message}.`, [{ path, message }]);
}

/** Built-in tools, then the organization's own. */
export async function listTools(ctx: ServiceContext) {
  const rows = await ctx.db.select().from(tools).where(eq(tools.orgId, ctx.principal.orgId)).orderBy(asc(tools.name));
  const all = [...BUILTIN_TOOLS.map(builtinView), ...rows.map(toolView)];
  return { tools: all, total_count: all.length };
}

/** A built-in tool by its id, or the organization's tool by id or name. */
export async function findCustomTool(ctx: ServiceContext, ref: string): Promise<Row | undefined> {
  const where = isUuid(ref) ? eq(tools.id, ref) : eq(tools.name, ref);
  const [row] = await ctx.db
    .select()
    .from(tools)
    .where(and(where, eq(tools.orgId, ctx.principal.orgId)))
    .limit(1);
  return row;
}

export async function getTool(ctx: ServiceContext, id: string) {
  const builtin = builtinTool(id);
  if (builtin) return builtinView(builtin);
  const row = await findCustomTool(ctx, id);
  if (!row) throw notFound(id);
  return toolView(row);
}

async function check(ctx: ServiceContext, input: ToolInput) {
  if (builtinTool(input.name)) invalid('name', `"${input.name}" is the name of a built-in tool`);
  if (input.input_schema.type !== 'object') invalid('input_schema.type', 'must be "object" (a tool takes named arguments)');
  try {
    compileSchema(input.input_schema);
  } catch (e) {
    invalid('input_schema', (e as Error).message);
  }
  const impl = input.implementation;
  if (impl.type === 'http') {
    const match = isUuid(impl.connector) ? eq(connectors.id, impl.connector) : eq(connectors.name, impl.connector);
    const [c] = await ctx.db
      .select({ type: connectors.type })
      .from(connectors)
      .where(and(match, eq(connectors.orgId, ctx.principal.orgId)))
      .limit(1);
    if (!c) invalid('implementation.connector', `no connector "${impl.connector}" in this organization`);
    if (c.type !== 'http') invalid('implementation.connector', `"${impl.connector}" is a ${c.type} connector; an HTTP tool needs an http one`);
  } else {
    const [p] = isUuid(impl.pipeline_id)
      ? await ctx.db
          .select({ id: pipelines.id })
          .from(pipelines)
          .where(and(eq(pipelines.id, impl.pipeline_id), eq(pipelines.orgId, ctx.principal.orgId)))
      : [];
    if (!p) invalid('implementation.pipeline_id', `no pipeline ${impl.pipeline_id} in this organization`);
  }
}

const nameTaken = (e: unknown) => ((e as { cause?: { code?: string } })?.cause ?? (e as { code?: string }))?.code === '23505';

export async function createTool(ctx: ServiceContext, input: ToolInput) {
  await check(ctx, input);
  try {
    const [row] = await ctx.db
      .insert(tools)
      .values({
        orgId: ctx.principal.orgId,
        name: input.name,
        description: input.description ?? '',
        inputSchema: input.input_schema,
        implementation: input.implementation,
        createdBy: ctx.principal.userId ?? ctx.principal.keyId ?? null,
      })
      .returning();
    return toolView(row!);
  } catch (e) {
    if (nameTaken(e)) throw new AppError('TOOL_NAME_TAKEN', `A tool named "${input.name}" already exists in this organization.`);
    throw e;
  }
}

async function ownRow(ctx: ServiceContext, id: string): Promise<Row> {
  if (builtinTool(id)) throw new AppError('TOOL_READ_ONLY', `"${id}" is a built-in tool: it cannot be changed or deleted.`);
  const row = isUuid(id) ? await findCustomTool(ctx, id) : undefined;
  if (!row) throw notFound(id);
  return row;
}

export async function updateTool(ctx: ServiceContext, id: string, patch: Partial<ToolInput>) {
  const row = await ownRow(ctx, id);
  const next: ToolInput = {
    name: patch.name ?? row.name,
    description: patch.description ?? row.description,
    input_schema: patch.input_schema ?? row.inputSchema,
    implementation: patch.implementation ?? (row.implementation as ToolImplementation),
  };
  await check(ctx, next);
  try {
    const [updated] = await ctx.db
      .update(tools)
      .set({ name: next.name, description: next.description ?? '', inputSchema: next.input_schema, implementation: next.implementation, updatedAt: new Date() })
      .where(and(eq(tools.id, row.id), eq(tools.orgId, ctx.principal.orgId)))
      .returning();
    return toolView(updated!);
  } catch (e) {
    if (nameTaken(e)) throw new AppError('TOOL_NAME_TAKEN', `A tool named "${next.name}" already exists in this organization.`);
    throw e;
  }
}

/** Deletes a custom tool no agent uses (409 naming the agents otherwise). */
export async function deleteTool(ctx: ServiceContext, id: string) {
  const row = await ownRow(ctx, id);
  const users = await ctx.db
    .select({ name: agents.name })
    .from(agents)
    .where(and(eq(agents.orgId, ctx.principal.orgId), sql`${agents.tools} @> ${JSON.stringify([{ id: row.id }])}::jsonb`));
  if (users.length)
    throw new AppError('TOOL_IN_USE', `The tool "${row.name}" is assigned to ${users.map((u) => `"${u.name}"`).join(', ')}: remove it from them first.`, {
      agents: users.map((u) => u.name),
    });
  await ctx.db.delete(tools).where(and(eq(tools.id, row.id), eq(tools.orgId, ctx.principal.orgId)));
}
