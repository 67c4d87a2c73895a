import { stageOf, stageRank } from '@/engine/node-plan';
import { BEHAVIORS, plannedWhere } from './behaviors';
import type { Request } from './read';
import type { Step } from './select';

/** Whether a step routes the flow (keeps what passes, or branches). */
export const isRouter = (s: Step): boolean => Boolean(BEHAVIORS[s.type]?.router);

/**
 * The order of the steps: by where each belongs in a pipeline (sources, parsers, conversion, validation,
 * de-identification, the rest, sinks), the request's own order among equals. Steps said after "otherwise"
 * go on the branch of what the first router sends aside; sinks are kept apart (they fan out).
 */
export function orderSteps(steps: Step[], req: Request, reasoning: string[]): { main: Step[]; sinks: Step[]; asideSteps: Step[]; router: Step | undefined } {
  const router = steps.filter(isRouter).sort((x, y) => x.at - y.at)[0];
  // "drop X and send the rest": the rest is what the filter keeps, not a branch of its own
  const removes = router && BEHAVIORS[router.type]!.router === 'keep' && /\b(drop|exclud|remov|discard|skip)\w*|\bfilter\w* out\b/.test(req.lower);
  const elseAt = router && !removes && req.elseAt !== null && req.elseAt > router.at ? req.elseAt : null;
  for (const s of steps) if (elseAt !== null && s.at > elseAt) s.aside = true;
  // a test on what a model or an agent answered comes after it
  const decides = steps.find((s) => BEHAVIORS[s.type]!.verdict);
  const stage = (s: Step) => stageRank(isRouter(s) && decides && decides.at < s.at ? 'after-model' : stageOf(BEHAVIORS[s.type]!, req.data));
  const byOrder = (x: Step, y: Step) => stage(x) - stage(y) || x.at - y.at;
  // a schedule starts with nothing but the time: a pipeline on FHIR data reads it from the server first
  const readers = plannedWhere((p) => p.scheduled?.reads === req.data);
  if (req.trigger.event === 'schedule' && readers.length && !steps.some((s) => BEHAVIORS[s.type]!.role === 'source')) {
    // several types, "all of them": one bulk export rather than one search per type
    const all = req.resourceTypes.length > 1 && /\ball\b/.test(req.lower);
    const source = readers.find((t) => Boolean(BEHAVIORS[t]!.scheduled!.all) === all) ?? readers[0]!;
    steps.push({ type: source, at: 0, said: 'a schedule reads its data' });
    reasoning.push(`A schedule gives only the time: added ${source} to read the FHIR data first.`);
  }
  const main = steps.filter((s) => !s.aside && BEHAVIORS[s.type]!.role !== 'sink').sort(byOrder);
  const sinks = steps.filter((s) => !s.aside && BEHAVIORS[s.type]!.role === 'sink').sort((x, y) => x.at - y.at);
  const asideSteps = steps.filter((s) => s.aside).sort(byOrder);
  const chain = (list: Step[]) => list.map((s) => s.type).join(' → ');
  reasoning.push(`Order: ${chain([...main, ...sinks]) || '(no steps)'}${asideSteps.length ? `; otherwise: ${chain(asideSteps)}` : ''}.`);

  return { main, sinks, asideSteps, router };
}
