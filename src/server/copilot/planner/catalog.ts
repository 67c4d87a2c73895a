import type { NodeDescriptor, NodePorts } from '@/engine/node-descriptor';
import { catalogPorts } from '@/engine/node-docs';
import { NODE_DESCRIPTORS, getNodeDescriptor } from '@/engine/nodes/descriptors';

/** The catalog as the planner reads it: ports for a config, and a search by words with rare words weighing more. */

export function descriptor(type: string): NodeDescriptor {
  const d = getNodeDescriptor(type);
  if (!d) throw new Error(`the planner asked for an unknown node type "${type}"`);
  return d;
}

/** The id a new node of the type gets (then _2, _3…): its descriptor's `idBase`, else the type id with underscores. */
export const idBase = (type: string): string => getNodeDescriptor(type)?.idBase ?? type.replace(/-/g, '_');

/** The node's ports for a config (its defaults filled in); the catalog's ports when the config does not parse. */
export function portsFor(type: string, config: Record<string, unknown>): NodePorts {
  const d = descriptor(type);
  const parsed = d.config.safeParse(config);
  return parsed.success ? d.ports(parsed.data) : catalogPorts(d);
}

export function configProblem(type: string, config: Record<string, unknown>): string | null {
  const parsed = descriptor(type).config.safeParse(config);
  return parsed.success ? null : parsed.error.issues.map((i) => `${i.path.join('.') || 'config'}: ${i.message}`).join('; ');
}

const words = (text: string) => text.toLowerCase().match(/[a-z0-9$][a-z0-9$-]*/g) ?? [];

/** Words so common in the catalog or in requests that they say nothing about which node is meant. */
const STOP = new Set([
  'a',
  'an',
  'the',
  'of',
  'to',
  'and',
  'or',
  'in',
  'on',
  'by',
  'for',
  'with',
  'from',
  'into',
  'its',
  'it',
  'as',
  'at',
  'is',
  'be',
  'each',
  'every',
  'one',
  'all',
  'data',
  'value',
  'values',
  'input',
  'output',
  'then',
  'that',
  'this',
  'them',
  'their',
  'new',
  'send',
  'sends',
  'run',
  'runs',
  'r4',
]);

interface Indexed {
  d: NodeDescriptor;
  name: Set<string>;
  keywords: string[];
  description: Set<string>;
}

const INDEX: Indexed[] = NODE_DESCRIPTORS.map((d) => ({
  d,
  name: new Set([...words(d.name), ...d.id.split('-')]),
  keywords: d.keywords.map((k) => k.toLowerCase()),
  description: new Set(words(d.description)),
}));

/** In how many node types a word appears (name, keywords or description). */
const DF = new Map<string, number>();
for (const n of INDEX) {
  for (const w of new Set([...n.name, ...n.keywords.flatMap(words), ...n.description])) DF.set(w, (DF.get(w) ?? 0) + 1);
}
const idf = (w: string) => Math.log((INDEX.length + 1) / ((DF.get(w) ?? 0) + 1));

export interface SearchHit {
  type: string;
  score: number;
  /** The request's words that matched, for the reasoning. */
  matched: string[];
}

/**
 * Node types whose name, keywords or description share words with the request, best first. A word counts
 * by its rarity in the catalog (inverse document frequency): three times in the name, twice as a keyword
 * (a keyword of several words must appear whole), once in the description.
 */
export function searchNodes(request: string): SearchHit[] {
  const text = ` ${words(request).join(' ')} `;
  const terms = new Set(words(request).filter((w) => !STOP.has(w)));
  const hits: SearchHit[] = [];
  for (const n of INDEX) {
    let score = 0;
    const matched: string[] = [];
    for (const k of n.keywords) {
      const kw = words(k);
      if (kw.length > 1 && text.includes(` ${kw.join(' ')} `)) {
        score += 2 * kw.reduce((s, w) => s + idf(w), 0);
        matched.push(k);
      }
    }
    for (const t of terms) {
      let w = 0;
      if (n.name.has(t)) w += 3;
      if (n.keywords.includes(t)) w += 2;
      if (n.description.has(t)) w += 1;
      if (w > 0) {
        score += w * idf(t);
        matched.push(t);
      }
    }
    if (score > 0) hits.push({ type: n.d.id, score: Math.round(score * 10) / 10, matched: [...new Set(matched)] });
  }
  return hits.sort((a, b) => b.score - a.score || a.type.localeCompare(b.type));
}
