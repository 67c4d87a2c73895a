import { getNodeType } from '@/engine/nodes';
import { validateDefinition, type ValidationReport } from '@/engine/validate';
import type { PipelineDefinition } from '@/shared/pipeline';
import type { Connector } from '../planner/configure';
import { filterOp } from './filter';
import { EditGraph } from './graph';
import { readEdits, type Op } from './intent';
import { layoutAdded } from './layout';
import { removeOp, replaceOp, triggerOp } from './ops-change';
import { insteadOp, orderOp, retryOp } from './ops-config';
import { placeOp, type OpResult } from './ops-place';
import type { EditContext } from './points';
import { diffDefinitions, type DefinitionDiff } from './diff';

export interface EditResult {
  definition: PipelineDefinition;
  /** What was changed, in words. */
  changes: string[];
  /** What the request asked that could not be done, in words (never a silent no-op). */
  unresolved: string[];
  validation: ValidationReport;
  /** Nodes added, removed, rewired or reconfigured: what the canvas marks in its preview. */
  diff: DefinitionDiff;
}

function run(g: EditGraph, op: Op, ctx: EditContext): OpResult {
  switch (op.kind) {
    case 'place':
      return placeOp(g, op, ctx);
    case 'remove':
      return removeOp(g, op, ctx);
    case 'replace':
      return replaceOp(g, op, ctx);
    case 'trigger':
      return triggerOp(g, op, ctx);
    case 'filter':
      return filterOp(g, op, ctx);
    case 'retry':
      return retryOp(g, op);
    case 'order':
      return orderOp(g, op);
    case 'instead':
      return insteadOp(g, op, ctx);
    default:
      return { ok: false, changes: [], problem: `"${op.clause}": the planner could not tell what to change` };
  }
}

const HOW =
  'say what to add and where ("add validation after to_fhir"), what to remove, move or replace, ' +
  'a filter ("only keep female patients"), or a setting ("retry writes 5 times", "acknowledge messages once their run ended")';

/**
 * Edits a pipeline as it is from a request in words (issue 31): each clause of the request is one change —
 * insert a step between two, before or after one named by id, label, type or what it does; a branch beside what
 * is there; remove (reconnecting around it); move; replace a step or the trigger; a filter with the sentence's
 * test; a setting — resolved against the graph and the node descriptors, placed by port types (converters where
 * the values do not fit) and configured from the sentence. Every change is checked by the engine's validator as it
 * is made: one that would make the pipeline invalid is not made, and what was not done is said in words.
 */
export function editPipeline(def: PipelineDefinition, request: string, opts: { connectors?: Connector[] } = {}): EditResult {
  let g = new EditGraph(structuredClone(def));
  const ctx: EditContext = { connectors: opts.connectors ?? [] };
  const changes: string[] = [];
  const unresolved: string[] = [];
  const errorsBefore = validateDefinition(def, getNodeType).errors.length;
  const ops = readEdits(request);
  for (const op of ops) {
    const trial = g.clone();
    let r: OpResult;
    try {
      r = run(trial, op, ctx);
    } catch (e) {
      r = { ok: false, changes: [], problem: `"${op.clause}": ${(e as Error).message}` };
    }
    if (!r.ok) {
      unresolved.push(r.problem ?? `"${op.clause}" could not be done`);
      continue;
    }
    const report = validateDefinition(trial.def, getNodeType);
    if (report.errors.length > errorsBefore) {
      unresolved.push(
        `"${op.clause}" was not made: the pipeline would not be valid (${report.errors.map((e) => `${e.node_id ?? 'pipeline'}: ${e.message}`).join('; ')})`,
      );
      continue;
    }
    g = trial;
    changes.push(...r.changes);
    if (r.placed) ctx.last = r.placed;
  }
  if (!ops.length) unresolved.push(`nothing in "${request.trim()}" reads as a change to this pipeline: ${HOW}`);
  layoutAdded(def, g.def);
  return { definition: g.def, changes, unresolved, validation: validateDefinition(g.def, getNodeType), diff: diffDefinitions(def, g.def) };
}
