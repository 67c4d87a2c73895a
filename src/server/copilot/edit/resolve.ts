import { getNodeDescriptor } from '@/engine/nodes/descriptors';
import type { PipelineNode } from '@/shared/pipeline';
import { BEHAVIORS, doesJob, isOutput, plannedWhere } from '../planner/behaviors';
import { searchNodes } from '../planner/catalog';
import type { EditGraph } from './graph';

type Test = (n: PipelineNode) => boolean;
const d = (n: PipelineNode) => getNodeDescriptor(n.type);
const job =
  (name: string): Test =>
  (n) =>
    doesJob(n.type, name);

/**
 * Steps named by their descriptors' `plan.edit.names` ("the claim edits", "the ack", "the database step"), one entry per
 * pattern (nodes sharing one are named together), in catalog order: those of sinks and sources, which name where the
 * data comes from or goes, or those of the others.
 */
const named = (ends: boolean): [RegExp, Test][] => {
  const byPattern = new Map<RegExp, string[]>();
  for (const type of plannedWhere((p) => p.edit?.names && (p.role === 'sink' || p.role === 'source') === ends)) {
    const re = BEHAVIORS[type]!.edit!.names!;
    byPattern.set(re, [...(byPattern.get(re) ?? []), type]);
  }
  return [...byPattern].map(([re, types]) => [re, (n) => types.includes(n.type)]);
};

/**
 * What a step is called by what it does ("once the message is parsed", "before it is written", "the claim edits",
 * "just before the result goes out"), as a test on the nodes of the pipeline; the first that matches wins. The words
 * naming one node type come first (those of sinks and sources after what the others do), then those of a job, a role,
 * a category or a side effect.
 */
const DOES: [RegExp, Test][] = [
  ...named(false),
  [/\bde-?identif\w*|\banonymi\w*|\bredact\w*|\bphi\b/, job('deidentify')],
  [/\bsummar\w*/, job('summary')],
  [/\bllm\b|\bprompt\b|\bmodel\b|\bclassif\w*/, (n) => d(n)?.category === 'ai'],
  [/\bfilter\w*/, (n) => BEHAVIORS[n.type]?.router === 'keep'],
  [/\bcondition\b|\bbranch\b/, (n) => BEHAVIORS[n.type]?.router === 'branch'],
  [/\bvalidat\w*|\bvalid\b|\bchecks?\b|\bchecked\b|\bconformance\b/, job('validate')],
  [/\bpars(e|ed|es|ing|er)\b/, (n) => Boolean(BEHAVIORS[n.type]?.parses)],
  [/\bconver\w*|\bto fhir\b|\bfhir conversion\b|\bmapping\b|\bmapped\b/, job('to-fhir')],
  [/\b(query|queried|search\w*|fetch\w*|read(s|ing)?|pull\w*)\b/, (n) => BEHAVIORS[n.type]?.role === 'source'],
  ...named(true),
  [/\b(written|writ\w*|sav\w*|stor\w*|load\w*|upload\w*|persist\w*|server|ehr)\b/, (n) => d(n)?.side_effect === 'write'],
  [/\bresults? goes out\b|\bgoes out\b|\boutput\b|\breturn\w*\b|\bresponse\b|\bthe end\b|\bresult\b/, (n) => isOutput(n.type)],
  [/\btrigger\w*|\bstart\w*\b|\barriv\w*|\bcomes? in\b|\breceiv\w*|\bsender\b|\bbeginning\b|\bwebhook\b|\bschedule\b/, (n) => Boolean(d(n)?.trigger)],
];

const words = (s: string): string[] => s.toLowerCase().match(/[a-z0-9_]+/g) ?? [];

/** Prefers, among nodes that match, the one the data takes on the main chain, then the first in the data's order. */
function best(g: EditGraph, nodes: PipelineNode[]): PipelineNode | undefined {
  if (nodes.length <= 1) return nodes[0];
  const chain = g.mainChain();
  const on = nodes.filter((n) => chain.includes(n.id));
  const order = g.order();
  const pool = on.length ? on : nodes;
  // an output on the main chain is the one the result goes to; among others, the first the data reaches
  return [...pool].sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id))[0];
}

/**
 * The node of the pipeline a phrase names: by its id ("to_fhir", "db_write"), its label, its type or the type's
 * name ("the FHIR validation"), what it does ("once the message is parsed", "before it is written to the server"),
 * else the catalog's search on the phrase among the types the pipeline has. Undefined: nothing fits.
 */
export function findNode(g: EditGraph, phrase: string, opts: { exclude?: string[] } = {}): PipelineNode | undefined {
  const p = phrase.toLowerCase().trim();
  if (!p) return undefined;
  const nodes = g.def.nodes.filter((n) => !opts.exclude?.includes(n.id));
  const ws = words(p);
  const byId = nodes.find(
    (n) =>
      ws.includes(n.id.toLowerCase()) &&
      !['start', 'out', 'check', 'send', 'split', 'write', 'validate', 'parse', 'query', 'extract', 'deidentify', 'summarize'].includes(n.id.toLowerCase()),
  );
  if (byId) return byId;
  const byIdWord = nodes.find((n) => p === n.id.toLowerCase());
  if (byIdWord) return byIdWord;
  const byName = nodes.find((n) => n.name && words(n.name).length > 0 && words(n.name).every((w) => ws.includes(w)));
  if (byName) return byName;
  const byType = nodes.filter((n) => p.includes(n.type) || (d(n) && words(d(n)!.name).length > 1 && words(d(n)!.name).every((w) => ws.includes(w))));
  if (byType.length) return best(g, byType);
  for (const [re, test] of DOES) {
    if (!re.test(p)) continue;
    const hit = nodes.filter(test);
    if (hit.length) return best(g, hit);
  }
  // a step id said as a word ("before validate", "after out")
  const idWord = nodes.find((n) => ws.includes(n.id.toLowerCase()));
  if (idWord) return idWord;
  const ranked = searchNodes(p)
    .filter((h) => h.score >= 6)
    .map((h) => h.type);
  const present = nodes.filter((n) => ranked.includes(n.type)).sort((a, b) => ranked.indexOf(a.type) - ranked.indexOf(b.type));
  return present[0];
}
