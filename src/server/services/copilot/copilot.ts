import { env } from '@/env';
import { NODE_DESCRIPTORS } from '@/engine/nodes/descriptors';
import { listLanguageModels } from '@/server/ai/models';
import { OFFLINE_ENTRY } from '@/server/ai/catalog';
import { AppError } from '@/server/errors';
import { planFhirQueries } from '@/server/copilot/fhir-queries';
import { proposeAgent } from '@/server/copilot/agent-proposal';
import { pipelineDocs } from '@/server/copilot/pipeline-docs';
import { PipelineDefinition } from '@/shared/pipeline';
import { batchMessages, isBatch, parseHl7v2 } from '@/clinical/hl7v2';
import { convertMessage, traceMapping, UnsupportedMessageError } from '@/clinical/hl7v2-fhir';
import type { ServiceContext } from '../context';
import { createAgent } from '../agents/create-agent';
import { findAgentRow } from '../agents/find-agent';
import { agentProblems } from '../agents/lifecycle';
import { findPipelineRow } from '../pipelines/find';
import { agentInsights } from './insights';
import { validateForCopilot } from './validate';

/** POST /api/copilot/generate/fhir-queries */
export function generateFhirQueries(description: string) {
  const plan = planFhirQueries(description);
  return { queries: plan.queries, reasoning: plan.reasoning, planner: 'offline' as const };
}

/**
 * POST /api/copilot/generate/agent: a proposed configuration, with what would keep it from being deployed; with
 * `create: true` it is also created (status active) and its id returned.
 */
export async function generateAgent(ctx: ServiceContext, input: { description: string; create?: boolean }) {
  const { agent, reasoning } = proposeAgent(input.description);
  const problems = agentProblems({ modelConfig: agent.model_config, tools: agent.tools });
  const proposal = { ...agent, tools: agent.tools.map((t) => t.id) };
  if (!input.create) return { agent: { id: null, ...proposal }, reasoning, problems, planner: 'offline' as const };
  const created = await createAgent(ctx, { ...proposal });
  return { agent: { ...proposal, id: created.id }, reasoning, problems, planner: 'offline' as const };
}

/** POST /api/copilot/analyze: a pipeline (by id or definition) or an agent, for what a reviewer would stop. */
export async function analyze(ctx: ServiceContext, input: { pipeline_id?: string; definition?: unknown; agent_id?: string }) {
  if (input.agent_id) {
    const insights = await agentInsights(ctx, input.agent_id);
    const row = await findAgentRow(ctx, input.agent_id);
    const problems = agentProblems(row).map((p) => ({ node_id: null, code: 'AGENT_INVALID', message: `${p.path}: ${p.message}` }));
    return {
      kind: 'agent' as const,
      id: row.id,
      valid: problems.length === 0,
      errors: problems,
      warnings: insights.recommendations.map((r) => ({ node_id: null, code: r.kind.toUpperCase().replaceAll('-', '_'), message: r.message })),
    };
  }
  if (input.pipeline_id) {
    const row = await findPipelineRow(ctx, input.pipeline_id);
    return { kind: 'pipeline' as const, id: row.id, ...validateForCopilot(row.definition) };
  }
  if (input.definition !== undefined) return { kind: 'pipeline' as const, id: null, ...validateForCopilot(input.definition) };
  throw new AppError('VALIDATION_FAILED', 'Name what to analyze: pipeline_id, definition or agent_id.', [
    { path: '', message: 'one of pipeline_id, definition, agent_id is required' },
  ]);
}

export { agentInsights, validateForCopilot };

/** POST /api/copilot/generate/pipeline-docs: Markdown documentation of a pipeline (by id) or a definition. */
export async function generatePipelineDocs(ctx: ServiceContext, input: { pipeline_id?: string; definition?: unknown; name?: string }) {
  const row = input.pipeline_id ? await findPipelineRow(ctx, input.pipeline_id) : undefined;
  const parsed = PipelineDefinition.safeParse(row?.definition ?? input.definition);
  if (!parsed.success)
    throw new AppError(
      'VALIDATION_FAILED',
      'Give pipeline_id, or a definition {nodes, connections}.',
      parsed.error.issues.map((i) => ({ path: `definition.${i.path.join('.')}`, message: i.message })),
    );
  const findings = validateForCopilot(parsed.data);
  const markdown = pipelineDocs(
    { name: row?.name ?? input.name ?? 'Pipeline', description: row?.description, version: row?.version, status: row?.status },
    parsed.data,
    findings,
  );
  return { markdown, valid: findings.valid };
}

/**
 * POST /api/copilot/generate/hl7-mapping: the HL7 v2 field → FHIR path rules Clinflow's conversion applies to a
 * sample message, read back by tracing each field's value into the bundle (observed, not assumed).
 */
export function generateHl7Mapping(text: string) {
  const parsed = parseHl7v2(text);
  if (!parsed.ok)
    throw new AppError(
      'VALIDATION_FAILED',
      `The sample is not HL7 v2: ${parsed.errors.map((e) => e.message).join('; ')}`,
      parsed.errors.map((e) => ({ path: 'message', message: e.message })),
    );
  const message = isBatch(parsed.value) ? batchMessages(parsed.value)[0] : parsed.value;
  if (!message) throw new AppError('VALIDATION_FAILED', 'The batch holds no message.', [{ path: 'message', message: 'empty batch' }]);
  let bundle;
  try {
    bundle = convertMessage(message).bundle;
  } catch (e) {
    if (e instanceof UnsupportedMessageError) throw new AppError('VALIDATION_FAILED', e.message, [{ path: 'message', message: e.message }]);
    throw e;
  }
  const { rules, untraced } = traceMapping(message, bundle);
  return { message_type: [message.message_type, message.trigger_event].filter(Boolean).join('^'), rules, untraced, resources: (bundle.entry ?? []).length };
}

/** GET /api/copilot/health: which planner answers, what it plans over, and the language models it could use. */
export function copilotHealth() {
  const models = listLanguageModels().filter((m) => m.available && m.id !== 'clinflow/offline');
  return {
    status: 'ok' as const,
    planner: env.COPILOT_MODEL === OFFLINE_ENTRY.id ? ('offline' as const) : ('llm' as const),
    default_model: env.COPILOT_MODEL,
    planners: [
      { id: 'offline', available: true, detail: 'Rule-based and deterministic: catalog search and port types; works without any model.' },
      {
        id: 'llm',
        available: models.length > 0,
        detail: models.length
          ? [
              `Structured output constrained to the catalog, checked by the validator and sent back with its errors: pipelines are`,
              `designed with ${env.COPILOT_MODEL === OFFLINE_ENTRY.id ? 'a model named in the request (model)' : env.COPILOT_MODEL}.`,
            ].join(' ')
          : 'No language model is configured (OPENAI_API_KEY, ANTHROPIC_API_KEY or OPENAI_COMPATIBLE_*): the offline planner answers.',
      },
    ],
    catalog: { node_types: NODE_DESCRIPTORS.length },
    models: models.map((m) => m.id),
    limit_per_minute: env.COPILOT_PER_MINUTE,
  };
}
