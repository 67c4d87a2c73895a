import { and, desc, eq, sql } from 'drizzle-orm';
import { isDeepStrictEqual } from 'node:util';
import { agents, agentVersions, type AgentConfig } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { ServiceContext } from '../context';
import { type AgentRow, configOf } from './agent-views';
import { findAgentRow } from './find-agent';

type VersionRow = typeof agentVersions.$inferSelect;

export function versionView(v: VersionRow) {
  return {
    agent_id: v.agentId,
    version: v.version,
    note: v.note,
    config: { ...v.config, tools: v.config.tools.map((t) => t.id) },
    tool_settings: Object.fromEntries(v.config.tools.map((t) => [t.id, t.config])),
    created_by: v.createdBy,
    created_at: v.createdAt.toISOString(),
  };
}

/** Snapshots the agent's whole configuration as its next version (in one transaction with the counter). */
export async function snapshot(ctx: ServiceContext, row: AgentRow, note: string): Promise<VersionRow> {
  return ctx.db.transaction(async (tx) => {
    const [bumped] = await tx
      .update(agents)
      .set({ version: sql`${agents.version} + 1` })
      .where(and(eq(agents.id, row.id), eq(agents.orgId, ctx.principal.orgId)))
      .returning({ version: agents.version });
    const [v] = await tx
      .insert(agentVersions)
      .values({ agentId: row.id, version: bumped!.version, config: configOf(row), note, createdBy: ctx.principal.userId ?? ctx.principal.keyId ?? null })
      .returning();
    return v!;
  });
}

export async function createVersion(ctx: ServiceContext, agentId: string, note = '') {
  const row = await findAgentRow(ctx, agentId);
  return versionView(await snapshot(ctx, row, note));
}

export async function listVersions(ctx: ServiceContext, agentId: string) {
  const row = await findAgentRow(ctx, agentId);
  const rows = await ctx.db.select().from(agentVersions).where(eq(agentVersions.agentId, row.id)).orderBy(desc(agentVersions.version));
  return { versions: rows.map(versionView), total_count: rows.length };
}

/** The configuration of version `n` of the agent (for a chat that names one). */
export async function versionConfig(ctx: ServiceContext, row: AgentRow, n: number): Promise<AgentConfig> {
  const [v] = await ctx.db
    .select()
    .from(agentVersions)
    .where(and(eq(agentVersions.agentId, row.id), eq(agentVersions.version, n)))
    .limit(1);
  if (!v) throw new AppError('AGENT_VERSION_NOT_FOUND', `Agent ${row.id} has no version ${n} (it has ${row.version}).`);
  return v.config;
}

/** Whether the agent's current configuration is its latest snapshot already. */
export async function latestMatches(ctx: ServiceContext, row: AgentRow): Promise<boolean> {
  if (row.version === 0) return false;
  const [v] = await ctx.db
    .select({ config: agentVersions.config })
    .from(agentVersions)
    .where(and(eq(agentVersions.agentId, row.id), eq(agentVersions.version, row.version)))
    .limit(1);
  return Boolean(v && isDeepStrictEqual(v.config, configOf(row)));
}
