import { z } from 'zod';

export const Description = z
  .string()
  .trim()
  .min(3, 'describe what you want in a few words')
  .max(5000)
  .refine((s) => !s.includes('\u0000'), 'must not contain the NUL character');

export const CopilotChatInput = z.object({
  message: Description.describe('What to design, change or review'),
  stream: z.boolean().default(false).describe('true: answer with Server-Sent Events (thinking, pipeline, validation, dry_run, message, done)'),
  context: z
    .object({
      pipeline_id: z.string().optional().describe('The pipeline the message is about: it is changed (not saved) or reviewed'),
      definition: z
        .unknown()
        .optional()
        .describe('The pipeline as the editor shows it ({nodes, connections}, unsaved edits included): changed or reviewed instead of the saved version'),
    })
    .default({}),
  sample_input: z.unknown().optional().describe("A sample for a new pipeline's trigger: the design is dry-run on it"),
  model: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe("A language model id from GET /api/llm-models to design a new pipeline with (the LLM planner); default: the server's COPILOT_MODEL"),
});

export const GenerateCodeInput = z.object({
  description: Description.describe('What the code should do, in plain words (e.g. "keep only observations with a value above 100")'),
  sample_input: z
    .unknown()
    .optional()
    .describe('A value the node will receive (JSON: a FHIR Bundle, a list, an object): the code addresses its fields and is run on it'),
  language: z.enum(['javascript']).default('javascript').describe('The code node runs JavaScript (QuickJS)'),
});

const Log = z.object({ level: z.enum(['debug', 'info', 'warn', 'error']), message: z.string() });

export const GeneratedCode = z.object({
  language: z.literal('javascript'),
  code: z.string().describe('The function body: `input` holds the incoming value; what it returns is the output'),
  explanation: z.string(),
  steps: z.array(z.string()).describe('What the code does, step by step, as read from the request'),
  fields: z.array(z.object({ asked: z.string(), path: z.string() })).describe("The request's words and the sample paths they were read as"),
  warnings: z.array(z.string()).describe('Parts of the request left out (e.g. a field the sample does not have) and assumptions made'),
  syntax: z.object({ ok: z.boolean(), error: z.string().optional() }),
  dry_run: z
    .union([
      z.object({ ok: z.literal(true), output: z.unknown(), logs: z.array(Log) }),
      z.object({ ok: z.literal(false), error: z.object({ code: z.string(), message: z.string() }), logs: z.array(Log) }),
    ])
    .nullable()
    .describe("The code run on sample_input in the code node's sandbox (null without a sample)"),
  valid: z.boolean().describe('The syntax check passed and, with a sample, the dry run completed'),
  node: z
    .object({
      type: z.string().describe('The node type that runs JavaScript'),
      name: z.string(),
      config: z.object({ source: z.string(), timeout_ms: z.number().int() }),
    })
    .describe('A code node to place in a pipeline'),
  planner: z.literal('offline'),
});

export const TAGS = ['Copilot'];

export const Finding = z.object({ node_id: z.string().nullable(), code: z.string(), message: z.string() });

export const Report = z.object({ valid: z.boolean(), errors: z.array(Finding), warnings: z.array(Finding) });

export const Node = z
  .object({
    id: z.string(),
    type: z.string(),
    name: z.string().optional(),
    config: z.record(z.string(), z.unknown()),
    position: z.object({ x: z.number(), y: z.number() }),
  })
  .loose();

export const Connection = z.object({ source: z.string(), source_port: z.string(), target: z.string(), target_port: z.string() }).loose();

/** The model to plan with: any id of GET /api/llm-models; without it COPILOT_MODEL (default clinflow/offline). */

export const PlannerModel = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe(
    [
      'A language model id from GET /api/llm-models to design with (the LLM planner); default:',
      "the server's COPILOT_MODEL, clinflow/offline unless set — the rule-based planner",
    ].join(' '),
  );

export const Diff = z.object({
  added: z.array(z.string()),
  removed: z.array(z.string()),
  rewired: z.array(z.string()),
  changed: z.array(z.string()),
  connections: z.object({ added: z.array(Connection), removed: z.array(Connection) }),
});

export const Suggestion = z.object({
  id: z.string(),
  pipeline_id: z.string(),
  pipeline_version: z.number().int(),
  kind: z.string(),
  node_id: z.string().nullable(),
  title: z.string(),
  change: z.string().describe('The change, as a modify request'),
  status: z.enum(['open', 'applied']),
  applied_version: z.number().int().nullable(),
  created_at: z.string(),
});
