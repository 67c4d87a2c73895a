import { and, count, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { executions, type ExecutionStatus } from '@/server/db/schema';
import type { ServiceContext } from '../context';
import { isUuid } from '../context';
import { toSummary } from './execution-views';
import { inflatedText } from './stored-inputs';

export interface ListExecutionsInput {
  pipeline_id?: string;
  status?: ExecutionStatus;
  since?: string;
  until?: string;
  q?: string;
  limit: number;
  offset: number;
}

/**
 * History, newest first: status, timing and error; filter by pipeline, status, creation time, and text found in
 * the inputs, outputs or error (an MRN, a message control id).
 */
export async function listExecutions(ctx: ServiceContext, input: ListExecutionsInput) {
  const where: SQL[] = [eq(executions.orgId, ctx.principal.orgId)];
  if (input.pipeline_id !== undefined) {
    if (!isUuid(input.pipeline_id)) return { executions: [], total_count: 0 };
    where.push(eq(executions.pipelineId, input.pipeline_id));
  }
  if (input.status) where.push(eq(executions.status, input.status));
  if (input.since) where.push(gte(executions.createdAt, new Date(input.since)));
  if (input.until) where.push(lt(executions.createdAt, new Date(input.until)));
  if (input.q) return searchExecutions(ctx, where, input);
  const [rows, totals] = await Promise.all([
    ctx.db
      .select()
      .from(executions)
      .where(and(...where))
      .orderBy(desc(executions.createdAt), desc(executions.id))
      .limit(input.limit)
      .offset(input.offset),
    ctx.db
      .select({ n: count() })
      .from(executions)
      .where(and(...where)),
  ]);
  return { executions: rows.map(toSummary), total_count: totals[0]?.n ?? 0 };
}

/** Rows a search reads at a time, newest first. */
const SEARCH_PAGE = 500;

/**
 * The same with `q`: text found in the inputs, outputs or error. Postgres finds it in the JSON it can read; an input
 * or outputs stored deflated (stored-inputs.ts, stored-payloads.ts) Postgres cannot read, so the rows that hold one are
 * read here, a page at a time, and the text looked for in their JSON as `inputs::text ilike` would in the jsonb's.
 */
async function searchExecutions(ctx: ServiceContext, where: SQL[], input: ListExecutionsInput) {
  const escaped = JSON.stringify(input.q).slice(1, -1);
  // the text as it appears inside JSON (quotes and backslashes escaped), found literally (no LIKE wildcards)
  const pattern = `%${escaped.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const needle = escaped.toLowerCase();
  const errorText = sql`coalesce(${executions.error}::text, '')`;
  const found = sql<boolean>`(${executions.inputs}::text ilike ${pattern} or ${executions.outputs}::text ilike ${pattern} or ${errorText} ilike ${pattern})`;
  const ids: string[] = [];
  for (let after: { at: string; id: string } | undefined; ;) {
    const next = after ? sql`(${executions.createdAt}, ${executions.id}) < (${after.at}::timestamptz, ${after.id}::uuid)` : undefined;
    const page = await ctx.db
      .select({ id: executions.id, at: sql<string>`${executions.createdAt}::text`, found, z: executions.inputsZ, outputsZ: executions.outputsZ })
      .from(executions)
      .where(and(...where, sql`(${found} or ${executions.inputsZ} is not null or ${executions.outputsZ} is not null)`, next))
      .orderBy(desc(executions.createdAt), desc(executions.id))
      .limit(SEARCH_PAGE);
    const has = (z: Uint8Array | null) => !!z && inflatedText(z).toLowerCase().includes(needle);
    for (const r of page) if (r.found || has(r.z) || has(r.outputsZ)) ids.push(r.id);
    if (page.length < SEARCH_PAGE) break;
    after = page[page.length - 1];
  }
  const shown = ids.slice(input.offset, input.offset + input.limit);
  const rows = shown.length
    ? await ctx.db.select().from(executions).where(inArray(executions.id, shown)).orderBy(desc(executions.createdAt), desc(executions.id))
    : [];
  return { executions: rows.map(toSummary), total_count: ids.length };
}
