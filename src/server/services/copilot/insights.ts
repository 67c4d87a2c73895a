import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import { conversations, messages, modelCalls, type ReasoningStep } from '@/server/db/schema';
import type { ServiceContext } from '../context';
import { findAgentRow } from '../agents/find-agent';
import { builtinTool } from '../tools/builtin';

const DAYS = 30;
const RECENT_ANSWERS = 500;

interface Recommendation {
  kind: string;
  message: string;
}

const pct = (n: number, of: number) => (of ? Math.round((n / of) * 1000) / 10 : 0);

/**
 * GET /api/copilot/insights/{agentId}: how the agent was used over the last 30 days (turns by source, failures by
 * code, tokens, latency, tool calls and tool failures from its saved conversations) and what to change, by rule.
 */
export async function agentInsights(ctx: ServiceContext, agentId: string) {
  const agent = await findAgentRow(ctx, agentId);
  const since = new Date(Date.now() - DAYS * 86_400_000);
  const own = and(eq(modelCalls.orgId, ctx.principal.orgId), eq(modelCalls.agentId, agent.id), gte(modelCalls.createdAt, since));
  const [totals] = await ctx.db
    .select({
      turns: sql<number>`count(*)::int`,
      failed: sql<number>`count(*) filter (where not ${modelCalls.ok})::int`,
      input: sql<number>`coalesce(sum(${modelCalls.inputTokens}), 0)::int`,
      output: sql<number>`coalesce(sum(${modelCalls.outputTokens}), 0)::int`,
      toolCalls: sql<number>`coalesce(sum(${modelCalls.toolCalls}), 0)::int`,
      p50: sql<number | null>`percentile_cont(0.5) within group (order by ${modelCalls.latencyMs})`,
      p95: sql<number | null>`percentile_cont(0.95) within group (order by ${modelCalls.latencyMs})`,
    })
    .from(modelCalls)
    .where(own);
  const bySource = await ctx.db
    .select({ source: modelCalls.source, n: sql<number>`count(*)::int` })
    .from(modelCalls)
    .where(own)
    .groupBy(modelCalls.source);
  const failures = await ctx.db
    .select({ code: modelCalls.errorCode, n: sql<number>`count(*)::int` })
    .from(modelCalls)
    .where(and(own, eq(modelCalls.ok, false)))
    .groupBy(modelCalls.errorCode)
    .orderBy(desc(sql`count(*)`));
  const convs = await ctx.db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.agentId, agent.id), eq(conversations.orgId, ctx.principal.orgId), gte(conversations.updatedAt, since)));
  const answers = convs.length
    ? await ctx.db
        .select({ steps: messages.steps })
        .from(messages)
        .where(
          and(
            inArray(
              messages.conversationId,
              convs.map((c) => c.id),
            ),
            eq(messages.role, 'assistant'),
          ),
        )
        .orderBy(desc(messages.createdAt))
        .limit(RECENT_ANSWERS)
    : [];
  const tools = new Map<string, { calls: number; failures: number; last_error?: string }>();
  for (const { steps } of answers) {
    for (const s of steps as ReasoningStep[]) {
      if (s.type !== 'tool_call') continue;
      const t = tools.get(s.tool) ?? { calls: 0, failures: 0 };
      t.calls++;
      const error = (s.result as { error?: { message?: string } } | null)?.error;
      if (error) {
        t.failures++;
        t.last_error = error.message;
      }
      tools.set(s.tool, t);
    }
  }
  const t = totals!;
  const recommendations: Recommendation[] = [];
  if (t.turns === 0)
    recommendations.push({
      kind: 'no-usage',
      message: `No turns in the last ${DAYS} days: try it in the playground, then deploy it to invoke it from pipelines or the public endpoint.`,
    });
  if (agent.modelConfig.model === 'clinflow/offline' && agent.status === 'deployed') {
    recommendations.push({
      kind: 'offline-model',
      message: [
        'This deployed agent runs on clinflow/offline, a rule-based model without an LLM: configure',
        'a language model (GET /api/llm-models) for answers beyond extraction and summaries.',
      ].join(' '),
    });
  }
  if (t.turns >= 5 && pct(t.failed, t.turns) >= 10) {
    const top = failures[0];
    recommendations.push({
      kind: 'failures',
      message: [
        `${pct(t.failed, t.turns)}% of turns failed${top?.code ? `, most often ${top.code}` : ''}:`,
        `check the model's provider settings and the failing tools below.`,
      ].join(' '),
    });
  }
  for (const [name, s] of tools) {
    if (s.failures > 0 && pct(s.failures, s.calls) >= 20)
      recommendations.push({
        kind: 'tool-failures',
        message: `The tool ${name} failed ${s.failures} of ${s.calls} calls${s.last_error ? ` (last: ${s.last_error})` : ''}: check its settings or connector.`,
      });
  }
  const usedNames = new Set(tools.keys());
  for (const a of agent.tools) {
    const name = builtinTool(a.id)?.id;
    if (name && t.turns >= 10 && !usedNames.has(name))
      recommendations.push({
        kind: 'unused-tool',
        message: `The tool ${name} was never called in ${t.turns} turns: remove it, or say in the instructions when to use it.`,
      });
  }
  if ((t.p95 ?? 0) > 15_000)
    recommendations.push({
      kind: 'latency',
      message: [
        `Turns take up to ${Math.round((t.p95 ?? 0) / 1000)} s (p95): a smaller`,
        `model, a lower max_tokens or fewer tool round trips would answer faster.`,
      ].join(' '),
    });
  return {
    agent_id: agent.id,
    period: { since: since.toISOString(), until: new Date().toISOString(), days: DAYS },
    usage: {
      turns: t.turns,
      failed_turns: t.failed,
      failure_rate: pct(t.failed, t.turns),
      conversations: convs.length,
      by_source: Object.fromEntries(bySource.map((r) => [r.source, r.n])),
      input_tokens: t.input,
      output_tokens: t.output,
      tool_calls: t.toolCalls,
      latency_ms: { p50: t.p50 === null ? null : Math.round(t.p50), p95: t.p95 === null ? null : Math.round(t.p95) },
    },
    failures: failures.map((f) => ({ code: f.code ?? 'UNKNOWN', count: f.n })),
    tools: [...tools].map(([tool, s]) => ({ tool, calls: s.calls, failures: s.failures, ...(s.last_error ? { last_error: s.last_error } : {}) })),
    recommendations,
  };
}
