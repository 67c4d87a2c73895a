import { z } from 'zod';
import { executeProcedure, readProcedure, router, writeProcedure } from '@/server/api/trpc';
import { agentInsights, analyze, copilotHealth, generateAgent, generateFhirQueries, generateHl7Mapping, generatePipelineDocs, validateForCopilot } from '@/server/services/copilot/copilot';
import { autoConfigure, configureNodeFor } from '@/server/services/copilot/configure';
import { generatePipeline } from '@/server/services/copilot/generate-pipeline';
import { generateCode } from '@/server/services/copilot/generate-code';
import { modifyForCopilot } from '@/server/services/copilot/modify';
import { applySuggestion, refine, suggest } from '@/server/services/copilot/suggestions';
import { NodeResults } from '../executions/execution.schema';
import { consumeUserLimit, userLimitRefusal } from '@/server/auth/user-limits';
import { CopilotChatInput, Description, GenerateCodeInput, GeneratedCode } from './copilot.schema';
import { inferSchema } from '@/server/copilot/infer-schema';
import { copilotChat } from '@/server/services/copilot/chat';

const TAGS = ['Copilot'];
const Finding = z.object({ node_id: z.string().nullable(), code: z.string(), message: z.string() });
const Report = z.object({ valid: z.boolean(), errors: z.array(Finding), warnings: z.array(Finding) });

/** REST counts copilot requests at the edge (rest/handler.ts); the web app's tRPC calls are counted here (30/min per user). */
function limited<P extends typeof readProcedure | typeof writeProcedure | typeof executeProcedure>(p: P): P {
  return p.use(async ({ ctx, next }) => {
    if (ctx.channel === 'app') {
      const rate = await consumeUserLimit(ctx.rt, ctx.principal!, 'copilot');
      if (!rate.allowed) throw userLimitRefusal(rate, 'copilot');
    }
    return next();
  }) as P;
}

const Node = z.object({ id: z.string(), type: z.string(), name: z.string().optional(), config: z.record(z.string(), z.unknown()), position: z.object({ x: z.number(), y: z.number() }) }).loose();
const Connection = z.object({ source: z.string(), source_port: z.string(), target: z.string(), target_port: z.string() }).loose();

/** The model to plan with: any id of GET /api/llm-models; without it COPILOT_MODEL (default clinflow/offline). */
const PlannerModel = z.string().min(1).max(200).optional().describe('A language model id from GET /api/llm-models to design with (the LLM planner); default: the server\'s COPILOT_MODEL, clinflow/offline unless set — the rule-based planner');

const generate = limited(executeProcedure)
  .meta({ openapi: { method: 'POST', path: '/copilot/generate/pipeline', tags: TAGS, summary: 'Design a pipeline from a description: planned over the node catalog, validated, and dry-run in test mode on sample_input', description: 'With a language model (model, or the server\'s COPILOT_MODEL) the LLM planner puts the catalog entries relevant to the request in the prompt and constrains the answer to the catalog (structured output: node types as an enum); the engine\'s validator checks it and, while it finds errors, the model is asked again with them (up to 3 answers). Without one, the offline planner finds nodes by catalog search and chains them by port types from a trigger to an output, filling configs from node defaults and values read in the request (cron expressions, FHIR resource types, connector names, fields, thresholds). A model that is not available is 400 MODEL_UNAVAILABLE or MODEL_NOT_FOUND; a model call that fails falls back to the offline planner (planner: offline, reasoning says why). validation is the validator\'s report on the proposal; dry_run (when sample_input is given and the proposal is valid) is a test-mode run that writes nothing and stores no execution. A proposal that could not be made valid is returned with its errors.', protect: true }, errors: ['MODEL_UNAVAILABLE', 'MODEL_NOT_FOUND'] })
  .input(
    z.object({
      description: Description,
      sample_input: z.unknown().optional().describe('A sample for the trigger (an HL7 message, a JSON body, a resource…): the proposal is dry-run on it'),
      model: PlannerModel,
    }),
  )
  .output(
    z.object({
      pipeline: z.object({ name: z.string(), nodes: z.array(Node), connections: z.array(Connection) }),
      validation: Report,
      dry_run: z.object({ status: z.enum(['completed', 'failed']), outputs: z.record(z.string(), z.unknown()), node_results: NodeResults, error: z.object({ node_id: z.string().nullable(), code: z.string(), message: z.string() }).optional() }).nullable(),
      reasoning: z.array(z.string()),
      unresolved: z.array(z.string()).describe('What the planner could not fill or connect: for the user to finish'),
      planner: z.enum(['offline', 'llm']).describe('llm: a language model designed it (model names it); offline: the rule-based planner'),
      model: z.string().describe('The model that planned: clinflow/offline for the offline planner (also when the named model failed: reasoning says why)'),
      attempts: z.number().int().optional().describe('LLM planner: how many answers the model gave (a second or third when the validator sent the first back)'),
      usage: z.object({ input_tokens: z.number().int(), output_tokens: z.number().int() }).optional().describe('LLM planner: tokens over all its answers'),
    }),
  )
  .mutation(({ ctx, input }) => generatePipeline(ctx, input));

const code = limited(executeProcedure)
  .meta({ openapi: { method: 'POST', path: '/copilot/generate/code', tags: TAGS, summary: 'Code for a custom `code` node from a description: a JavaScript function body on `input`, syntax-checked and, with sample_input, run on it in the code node\'s sandbox', description: 'The offline generator reads the request for the operations code nodes are written for — keep or drop records by a condition (above, below, is, before a date, older than, missing), drop duplicates by a field, sort by a field, count or group by a field, pick, rename or add fields (age from birthDate, a FHIR HumanName as text, BMI), convert units (glucose mg/dL↔mmol/L, lb↔kg, in↔cm, °F↔°C; a FHIR Quantity only where its unit matches), format dates (DD/MM/YYYY, YYYY-MM-DD, ISO, HL7 timestamps), flatten — and, given a sample, addresses its real field paths (`fields` says which word became which path; a FHIR Bundle\'s entries are read as entry[].resource). dry_run is the code run on sample_input in test mode exactly as the code node runs it (QuickJS sandbox, its time and memory limits): {ok: true, output, logs} or {ok: false, error, logs}; valid is false when the syntax check or the dry run failed. node is a `code` node config to place in a pipeline. 400 REQUEST_NOT_UNDERSTOOD (details: [{understood, examples}]) when the request names no operation it can make.', protect: true }, errors: ['REQUEST_NOT_UNDERSTOOD'] })
  .input(GenerateCodeInput)
  .output(GeneratedCode)
  .mutation(({ ctx, input }) => generateCode(ctx, input));

const configureNode = limited(readProcedure)
  .meta({ openapi: { method: 'POST', path: '/copilot/configure/node', tags: TAGS, summary: 'Generate the configuration of a node type from a description (over the config it has, if given)', description: 'Reads what the planner reads for the nodes it places: cron expressions, connectors of this organization, FHIR queries and resource types, thresholds, fields. valid says whether the result satisfies the node\'s config schema; missing lists what the description did not say.', protect: true }, errors: ['NODE_TYPE_NOT_FOUND'] })
  .input(z.object({ node_type: z.string().min(1).max(100), description: Description, config: z.record(z.string(), z.unknown()).optional().describe('The node\'s current config, kept where the description says nothing') }))
  .output(z.object({ node_type: z.string(), config: z.record(z.string(), z.unknown()), valid: z.boolean(), problems: z.array(z.string()), filled: z.array(z.string()), missing: z.array(z.string()), planner: z.literal('offline') }))
  .mutation(async ({ ctx, input }) => configureNodeFor(ctx, input));

const autoConfigurePipeline = limited(writeProcedure)
  .meta({ openapi: { method: 'POST', path: '/copilot/auto-configure/pipeline', tags: TAGS, summary: 'Configure the nodes of a pipeline that are not configured yet (invalid config, missing connector)', description: 'From the description (default: the pipeline\'s name and description), each node\'s input and the organization\'s connectors. Returns the definition with what changed and its validation; apply: true (with pipeline_id) saves it as the next version.', protect: true }, errors: ['PIPELINE_NOT_FOUND'] })
  .input(z.object({ pipeline_id: z.string().optional(), definition: z.unknown().optional(), description: Description.optional(), apply: z.boolean().default(false) }))
  .output(
    z.object({
      definition: z.object({ nodes: z.array(Node), connections: z.array(Connection) }),
      changes: z.array(z.object({ node_id: z.string(), filled: z.array(z.string()), missing: z.array(z.string()) })),
      validation: Report,
      saved_version: z.number().int().nullable(),
      planner: z.literal('offline'),
    }),
  )
  .mutation(({ ctx, input }) => autoConfigure(ctx, input));

const Diff = z.object({
  added: z.array(z.string()),
  removed: z.array(z.string()),
  rewired: z.array(z.string()),
  changed: z.array(z.string()),
  connections: z.object({ added: z.array(Connection), removed: z.array(Connection) }),
});

const modifyPipelineOp = limited(writeProcedure)
  .meta({
    openapi: {
      method: 'POST',
      path: '/copilot/modify/pipeline',
      tags: TAGS,
      summary: 'Change a pipeline from a request in words (e.g. "add de-identification before the LLM step", "only keep female patients", "start this from a webhook instead"), validated; apply: true saves it when valid',
      description:
        'The edit planner works on the graph as it is: each clause of the request is one change — a step inserted between two, before or after one (named by id, label, type or what it does), a branch beside what is there, a step removed (reconnected around), moved or replaced, the trigger replaced, a filter with the sentence\'s test, a setting. New steps are chosen and configured from the node catalog and wired by port types. Every change is validated as it is made; what could not be done is listed in unresolved, in words. With sample_input, a valid result is dry-run in test mode. diff names the nodes added, removed, rewired and changed. With a language model (model, else COPILOT_MODEL) the model makes the edit with the validator\'s repair rounds. A result that is not valid is never saved.',
      protect: true,
    },
    errors: ['PIPELINE_NOT_FOUND', 'MODEL_NOT_FOUND', 'MODEL_UNAVAILABLE'],
  })
  .input(z.object({ pipeline_id: z.string().optional(), definition: z.unknown().optional(), request: Description, apply: z.boolean().default(false), model: z.string().max(200).optional(), sample_input: z.unknown().optional() }))
  .output(
    z.object({
      definition: z.object({ nodes: z.array(Node), connections: z.array(Connection) }),
      changes: z.array(z.string()),
      unresolved: z.array(z.string()),
      validation: Report,
      diff: Diff,
      dry_run: z.unknown(),
      saved_version: z.number().int().nullable(),
      planner: z.enum(['offline', 'llm']),
      model: z.string(),
      reasoning: z.array(z.string()),
    }),
  )
  .mutation(({ ctx, input }) => modifyForCopilot(ctx, input));

const chat = limited(writeProcedure)
  .meta({ openapi: { method: 'POST', path: '/copilot/chat', tags: TAGS, summary: 'Chat with the copilot: design a pipeline, or change or review the one in context; stream: true answers with Server-Sent Events', description: 'Events, in order: thinking {content} for each step taken; pipeline {name?, nodes, connections} for the generated or modified definition (a proposal: nothing is saved); validation {valid, errors, warnings}; dry_run {status, outputs, node_results} when a sample was run; message {content}, the answer in words; done {}. A failure during the stream is an error {error} event, then the stream closes. With context.pipeline_id, a message asking to check or review it gets the review; any other is a change to it.', protect: true }, errors: ['PIPELINE_NOT_FOUND'] })
  .input(CopilotChatInput)
  .output(
    z.object({
      response: z.string(),
      reasoning_steps: z.array(z.object({ type: z.literal('thinking'), content: z.string() })),
      pipeline: z.object({ name: z.string().optional(), nodes: z.array(Node), connections: z.array(Connection) }).nullable(),
      validation: Report.nullable(),
      dry_run: z.unknown(),
    }),
  )
  .mutation(({ ctx, input }) => copilotChat(ctx, input));

const Suggestion = z.object({ id: z.string(), pipeline_id: z.string(), pipeline_version: z.number().int(), kind: z.string(), node_id: z.string().nullable(), title: z.string(), change: z.string().describe('The change, as a modify request'), status: z.enum(['open', 'applied']), applied_version: z.number().int().nullable(), created_at: z.string() });

const suggestions = limited(writeProcedure)
  .meta({ openapi: { method: 'POST', path: '/copilot/suggestions', tags: TAGS, summary: 'Improvement suggestions for a pipeline: each a concrete change with an id, applied with /copilot/suggestions/{id}/apply', description: 'From the copilot\'s checks on the current version: de-identification before external models, validation before FHIR writes, retries on writes. Stored; the open suggestions of earlier versions are replaced.', protect: true }, errors: ['PIPELINE_NOT_FOUND'] })
  .input(z.object({ pipeline_id: z.string() }))
  .output(z.object({ pipeline_id: z.string(), pipeline_version: z.number().int(), suggestions: z.array(Suggestion) }))
  .mutation(({ ctx, input }) => suggest(ctx, input));

const apply = limited(writeProcedure)
  .meta({ openapi: { method: 'POST', path: '/copilot/suggestions/{id}/apply', tags: TAGS, summary: 'Apply a suggestion: the change is made and saved as the pipeline\'s next version', description: '409 when the pipeline moved on since the suggestion was made, when it was applied already, or when the change would not give a valid pipeline (nothing is saved then).', protect: true }, errors: ['SUGGESTION_NOT_FOUND', 'SUGGESTION_STALE', 'SUGGESTION_APPLIED', 'SUGGESTION_NOT_APPLICABLE'] })
  .input(z.object({ id: z.string() }))
  .output(z.object({ suggestion: Suggestion, pipeline_version: z.number().int(), changes: z.array(z.string()), validation: Report }))
  .mutation(({ ctx, input }) => applySuggestion(ctx, input.id));

const refinePipeline = limited(writeProcedure)
  .meta({ openapi: { method: 'POST', path: '/copilot/refine/pipeline', tags: TAGS, summary: 'Optimize a pipeline: every suggested change made at once, validated; apply: true saves a valid result', protect: true }, errors: ['PIPELINE_NOT_FOUND'] })
  .input(z.object({ pipeline_id: z.string().optional(), definition: z.unknown().optional(), apply: z.boolean().default(false) }))
  .output(z.object({ definition: z.object({ nodes: z.array(Node), connections: z.array(Connection) }), changes: z.array(z.string()), unresolved: z.array(z.string()), validation: Report, saved_version: z.number().int().nullable(), planner: z.literal('offline') }))
  .mutation(({ ctx, input }) => refine(ctx, input));

const docs = limited(readProcedure)
  .meta({ openapi: { method: 'POST', path: '/copilot/generate/pipeline-docs', tags: TAGS, summary: 'Markdown documentation of a pipeline (pipeline_id or definition): how it starts, each step in order, what it writes, the checks\' findings', protect: true }, errors: ['PIPELINE_NOT_FOUND'] })
  .input(z.object({ pipeline_id: z.string().optional(), definition: z.unknown().optional(), name: z.string().max(200).optional() }))
  .output(z.object({ markdown: z.string(), valid: z.boolean() }))
  .mutation(({ ctx, input }) => generatePipelineDocs(ctx, input));

const infer = limited(readProcedure)
  .meta({ openapi: { method: 'POST', path: '/copilot/infer/schema', tags: TAGS, summary: 'Infer a JSON Schema (draft-07) from one or more samples (genson-js): types merged, a field required when every sample has it', description: 'fits says whether every sample validates against the result (the json-schema-validate node\'s validator); use the schema in that node or an llm-prompt node\'s output_schema.', protect: true } })
  .input(z.object({ samples: z.array(z.unknown()).min(1).max(100).describe('JSON values: objects, arrays, scalars'), title: z.string().max(200).optional() }))
  .output(z.object({ schema: z.record(z.string(), z.unknown()), fits: z.boolean(), samples: z.number().int() }))
  .mutation(({ input }) => ({ ...inferSchema(input.samples, input.title), samples: input.samples.length }));

const hl7Mapping = limited(readProcedure)
  .meta({ openapi: { method: 'POST', path: '/copilot/generate/hl7-mapping', tags: TAGS, summary: 'HL7 v2 field → FHIR path rules from a sample message: where the conversion puts each field\'s value', description: 'Read back by tracing each field, component and sub-component value (3 characters or more) of the sample into the bundle hl7v2-to-fhir makes of it; untraced lists values found nowhere (changed on the way, e.g. coded values, or not mapped). A value repeated elsewhere in the message may show that field\'s paths too.', protect: true } })
  .input(z.object({ message: z.string().min(8).max(1_000_000).describe('The sample HL7 v2 message (MSH first)') }))
  .output(z.object({ message_type: z.string(), rules: z.array(z.object({ hl7: z.string(), fhir: z.array(z.string()), example: z.string() })), untraced: z.array(z.object({ hl7: z.string(), example: z.string() })), resources: z.number().int() }))
  .mutation(({ input }) => generateHl7Mapping(input.message));

const health = readProcedure
  .meta({ openapi: { method: 'GET', path: '/copilot/health', tags: TAGS, summary: 'Which copilot planner answers, what it plans over, and the language models configured', protect: true } })
  .input(z.object({}))
  .output(z.object({ status: z.literal('ok'), planner: z.enum(['offline', 'llm']).describe('The planner generate/pipeline and chat use when a request names no model'), default_model: z.string().describe('COPILOT_MODEL'), planners: z.array(z.object({ id: z.string(), available: z.boolean(), detail: z.string() })), catalog: z.object({ node_types: z.number().int() }), models: z.array(z.string()), limit_per_minute: z.number().int() }))
  .query(() => copilotHealth());

const validatePipeline = limited(readProcedure)
  .meta({ openapi: { method: 'POST', path: '/copilot/validate/pipeline', tags: TAGS, summary: 'Validate a pipeline definition: the engine\'s checks, and the copilot\'s (patient data to an external LLM without de-identification, FHIR written without validation, writes without retry)', description: 'valid is the engine\'s verdict (errors stop a run or deploy); warnings include the copilot\'s checks. Limited to 30 copilot requests per minute per user or API key.', protect: true } })
  .input(z.object({ definition: z.unknown().describe('{nodes, connections}') }))
  .output(Report)
  .mutation(({ input }) => validateForCopilot(input.definition));

const fhirQueries = limited(readProcedure)
  .meta({ openapi: { method: 'POST', path: '/copilot/generate/fhir-queries', tags: TAGS, summary: 'FHIR R4 search request lines for a plain-language request (e.g. GET /Patient?family=smith&birthdate=ge1980-01-01)', description: 'Every parameter is an R4 search parameter of its resource type; conditions are coded in SNOMED CT and observations in LOINC where the request names a common one.', protect: true } })
  .input(z.object({ description: Description }))
  .output(z.object({ queries: z.array(z.string()), reasoning: z.array(z.string()), planner: z.literal('offline') }))
  .mutation(({ input }) => generateFhirQueries(input.description));

const agent = limited(writeProcedure)
  .meta({ openapi: { method: 'POST', path: '/copilot/generate/agent', tags: TAGS, summary: 'Propose an agent configuration from a description (create: true also creates it)', protect: true } })
  .input(z.object({ description: Description, create: z.boolean().default(false) }))
  .output(
    z.object({
      agent: z.object({ id: z.string().nullable(), name: z.string(), agent_type: z.string(), description: z.string(), model_config: z.object({ model: z.string(), temperature: z.number(), max_tokens: z.number() }), instructions: z.string(), prompt_template: z.string(), tools: z.array(z.string()) }),
      reasoning: z.array(z.string()),
      problems: z.array(z.object({ path: z.string(), message: z.string() })).describe('What would keep it from being deployed (e.g. a tool needing a connector)'),
      planner: z.literal('offline'),
    }),
  )
  .mutation(({ ctx, input }) => generateAgent(ctx, input));

const analyzeOne = limited(readProcedure)
  .meta({ openapi: { method: 'POST', path: '/copilot/analyze', tags: TAGS, summary: 'Analyze a pipeline (pipeline_id or definition) or an agent (agent_id) for issues', protect: true }, errors: ['PIPELINE_NOT_FOUND', 'AGENT_NOT_FOUND'] })
  .input(z.object({ pipeline_id: z.string().optional(), definition: z.unknown().optional(), agent_id: z.string().optional() }))
  .output(Report.extend({ kind: z.enum(['pipeline', 'agent']), id: z.string().nullable() }))
  .mutation(({ ctx, input }) => analyze(ctx, input));

const insights = limited(readProcedure)
  .meta({ openapi: { method: 'GET', path: '/copilot/insights/{agentId}', tags: TAGS, summary: 'Usage patterns of an agent over 30 days (turns, failures, tokens, latency, tool calls) and recommendations', protect: true }, errors: ['AGENT_NOT_FOUND'] })
  .input(z.object({ agentId: z.string() }))
  .output(
    z.object({
      agent_id: z.string(),
      period: z.object({ since: z.string(), until: z.string(), days: z.number() }),
      usage: z.object({ turns: z.number(), failed_turns: z.number(), failure_rate: z.number(), conversations: z.number(), by_source: z.record(z.string(), z.number()), input_tokens: z.number(), output_tokens: z.number(), tool_calls: z.number(), latency_ms: z.object({ p50: z.number().nullable(), p95: z.number().nullable() }) }),
      failures: z.array(z.object({ code: z.string(), count: z.number() })),
      tools: z.array(z.object({ tool: z.string(), calls: z.number(), failures: z.number(), last_error: z.string().optional() })),
      recommendations: z.array(z.object({ kind: z.string(), message: z.string() })),
    }),
  )
  .query(({ ctx, input }) => agentInsights(ctx, input.agentId));

/** The copilot (issue 10): the endpoints that exist so far; each works for real on the offline planner. */
export const copilotRouter = router({ chat, generate, code, docs, infer, hl7Mapping, health, suggestions, applySuggestion: apply, refine: refinePipeline, modify: modifyPipelineOp, configureNode, autoConfigure: autoConfigurePipeline, validatePipeline, fhirQueries, agent, analyze: analyzeOne, insights });
