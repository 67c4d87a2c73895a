import { BEHAVIORS } from './behaviors';
import type { Request } from './read';
import type { Step } from './select';

export const ROUTERS = ['condition', 'filter', 'switch'];

/**
 * The order of the steps: by where each belongs in a pipeline (sources, parsers, conversion, validation,
 * de-identification, the rest, sinks), the request's own order among equals. Steps said after "otherwise"
 * go on the branch of what the first router sends aside; sinks are kept apart (they fan out).
 */
export function orderSteps(steps: Step[], req: Request, reasoning: string[]): { main: Step[]; sinks: Step[]; asideSteps: Step[]; router: Step | undefined } {
  const routerIndex = (s: Step) => ROUTERS.includes(s.type);
  const router = steps.filter(routerIndex).sort((x, y) => x.at - y.at)[0];
  // "drop X and send the rest": the rest is what the filter keeps, not a branch of its own
  const removes = router?.type === 'filter' && /\b(drop|exclud|remov|discard|skip)\w*|\bfilter\w* out\b/.test(req.lower);
  const elseAt = router && !removes && req.elseAt !== null && req.elseAt > router.at ? req.elseAt : null;
  for (const s of steps) if (elseAt !== null && s.at > elseAt) s.aside = true;
  // a test on what a model or an agent answered comes after it
  const decides = steps.find((s) => s.type === 'agent' || s.type === 'llm-prompt');
  // clinical-extract makes FHIR out of text; on FHIR notes it is one more step, in the request's order
  const stage = (s: Step) =>
    routerIndex(s) && decides && decides.at < s.at ? 5.7 : s.type === 'clinical-extract' && req.data !== 'note' ? 5 : BEHAVIORS[s.type]!.stage;
  const byOrder = (x: Step, y: Step) => stage(x) - stage(y) || x.at - y.at;
  // a schedule starts with nothing but the time: a pipeline on FHIR data reads it from the server first
  if (req.trigger.type === 'schedule-trigger' && req.data === 'fhir' && !steps.some((s) => BEHAVIORS[s.type]!.role === 'source')) {
    // several types, "all of them": one bulk export rather than one search per type
    const source = req.resourceTypes.length > 1 && /\ball\b/.test(req.lower) ? 'fhir-bulk-export' : 'fhir-query';
    steps.push({ type: source, at: 0, said: 'a schedule reads its data' });
    reasoning.push(`A schedule gives only the time: added ${source} to read the FHIR data first.`);
  }
  const main = steps.filter((s) => !s.aside && BEHAVIORS[s.type]!.role !== 'sink').sort(byOrder);
  const sinks = steps.filter((s) => !s.aside && BEHAVIORS[s.type]!.role === 'sink').sort((x, y) => x.at - y.at);
  const asideSteps = steps.filter((s) => s.aside).sort(byOrder);
  reasoning.push(`Order: ${[...main, ...sinks].map((s) => s.type).join(' → ') || '(no steps)'}${asideSteps.length ? `; otherwise: ${asideSteps.map((s) => s.type).join(' → ')}` : ''}.`);

  return { main, sinks, asideSteps, router };
}
