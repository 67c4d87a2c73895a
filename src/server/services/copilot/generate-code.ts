import { EXAMPLE_REQUESTS, generateCode as generateOffline, RequestNotUnderstood } from '@/server/copilot/code/generate';
import { syntaxProblem } from '@/server/copilot/code/syntax';
import { OUTPUT_TYPE, plannedWhere, triggerTypeOf } from '@/server/copilot/planner/behaviors';
import { getNodeDescriptor } from '@/engine/nodes/descriptors';
import { AppError } from '@/server/errors';
import { PipelineDefinition } from '@/shared/pipeline';
import type { ServiceContext } from '../context';
import { runUnstored } from './test-run';

/** The code node's time limit in the proposal (its default), and what the dry run is allowed as a whole. */
const TIMEOUT_MS = 1000;
const DRY_RUN_LIMIT_MS = 15_000;

/** The node type that runs JavaScript (its plan's `runs`): the code node the proposal is for. */
const CODE = plannedWhere((p) => p.runs?.language === 'javascript')[0]!;

/** trigger (the sample, as is) → the proposed code node → output: the code runs as it would in a pipeline. */
function harness(source: string): PipelineDefinition {
  return PipelineDefinition.parse({
    nodes: [
      { id: 'sample', type: triggerTypeOf('manual'), config: { fields: { sample: 'any' } } },
      { id: 'code', type: CODE, config: { source, timeout_ms: TIMEOUT_MS } },
      { id: 'out', type: OUTPUT_TYPE, config: {} },
    ],
    connections: [
      { source: 'sample', source_port: 'sample', target: 'code', target_port: 'input' },
      { source: 'code', source_port: 'output', target: 'out', target_port: 'value' },
    ],
  });
}

/**
 * Runs the proposal on the sample through the engine, in test mode, on the organization's share of the code
 * sandbox (the code node's own path: config checked, time and memory limits, fair share). Nothing is stored.
 */
async function dryRun(ctx: ServiceContext, source: string, sample: unknown) {
  const r = await runUnstored(ctx, harness(source), { sample }, { label: 'copilot-code', limitMs: DRY_RUN_LIMIT_MS });
  const node = r.nodes.code;
  const logs = (node?.logs ?? []).map((l) => ({ level: l.level, message: l.message }));
  if (r.status === 'completed') return { ok: true as const, output: r.outputs.out ?? null, logs };
  const error = node?.error ?? r.error ?? { code: 'CODE_FAILED', message: 'The code did not run.' };
  return { ok: false as const, error: { code: error.code, message: error.message }, logs };
}

/**
 * POST /api/copilot/generate/code: a function body for a `code` node from a description, addressing the sample's
 * fields; syntax-checked, and with a sample run on it in the code node's sandbox. A proposal that fails its check
 * comes back with the error (`valid: false`), never as fine. 400 REQUEST_NOT_UNDERSTOOD when the request names no operation it can make.
 */
export async function generateCode(ctx: ServiceContext, input: { description: string; sample_input?: unknown; language?: 'javascript' }) {
  let made;
  try {
    made = generateOffline(input.description, input.sample_input);
  } catch (e) {
    if (!(e instanceof RequestNotUnderstood)) throw e;
    throw new AppError('REQUEST_NOT_UNDERSTOOD', `${e.message} Ask for an operation on the input's fields, e.g. "${EXAMPLE_REQUESTS[0]}".`, [
      { understood: e.understood, examples: EXAMPLE_REQUESTS },
    ]);
  }
  const problem = syntaxProblem(made.source);
  const dry_run = problem === null && input.sample_input !== undefined ? await dryRun(ctx, made.source, input.sample_input) : null;
  return {
    language: 'javascript' as const,
    code: made.source,
    explanation: made.explanation,
    steps: made.steps,
    fields: made.fields,
    warnings: made.warnings,
    syntax: problem === null ? { ok: true as const } : { ok: false as const, error: problem },
    dry_run,
    valid: problem === null && (dry_run?.ok ?? true),
    node: { type: CODE, name: getNodeDescriptor(CODE)!.name, config: { source: made.source, timeout_ms: TIMEOUT_MS } },
    planner: 'offline' as const,
  };
}
