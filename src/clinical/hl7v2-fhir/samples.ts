/**
 * The comparison over the shared samples (server/scripts only: reads files): every message of
 * ../shared/data/hl7v2/messages that has an expected bundle, converted and compared. Used by
 * scripts/compare-hl7-fhir.ts and by the library test that keeps the figure from regressing.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Bundle } from '@medplum/fhirtypes';
import { parseMessage } from '@/clinical/hl7v2/parse';
import { type Comparison, compareBundles } from './compare';
import { convertMessage } from './convert';

/** The shared samples: `messages/*.hl7` and, for most, `expected-fhir/*.json` (the FHIR-Converter's output). */
export const DATA = path.resolve(import.meta.dirname, '../../../../shared/data/hl7v2');

export interface SampleComparison {
  name: string;
  /** MSH-9.1 */
  type: string;
  comparison: Comparison;
}

interface Tally {
  agree: number;
  total: number;
  ratio: number;
}

export interface SamplesReport extends Tally {
  messages: SampleComparison[];
  byType: Record<string, Tally & { messages: number }>;
  byFact: Record<string, Tally>;
  notCompared: Record<string, number>;
  notComparedLinks: Record<string, number>;
}

function tally<T extends Tally>(into: Record<string, T>, key: string, agree: number, total: number, extra: Partial<T> = {}): void {
  const t = (into[key] ??= { agree: 0, total: 0, ratio: 0, ...extra } as T);
  t.agree += agree;
  t.total += total;
  t.ratio = t.total ? t.agree / t.total : 1;
}

/**
 * `dir` holds `messages/*.hl7` and `expected-fhir/*.json` (the same layout as the shared samples): the shared
 * samples by default, or another set, e.g. a held-out one to check the mapping generalizes beyond the messages
 * it was tuned on.
 */
export function compareSamples(dir: string = DATA): SamplesReport {
  const messages: SampleComparison[] = [];
  for (const file of readdirSync(path.join(dir, 'messages'))
    .filter((f) => f.endsWith('.hl7'))
    .sort()) {
    const name = file.replace(/\.hl7$/, '');
    const expectedFile = path.join(dir, 'expected-fhir', `${name}.json`);
    if (!existsSync(expectedFile)) continue;
    const message = parseMessage(readFileSync(path.join(dir, 'messages', file), 'utf8'));
    const expected = JSON.parse(readFileSync(expectedFile, 'utf8')) as Bundle;
    const { bundle } = convertMessage(message);
    messages.push({ name, type: message.message_type, comparison: compareBundles(expected, bundle) });
  }
  const byType: SamplesReport['byType'] = {};
  const byFact: SamplesReport['byFact'] = {};
  const notCompared: Record<string, number> = {};
  const notComparedLinks: Record<string, number> = {};
  for (const m of messages) {
    const c = m.comparison;
    tally(byType, m.type, c.agree, c.total, { messages: 0 });
    byType[m.type]!.messages++;
    for (const f of c.facts) tally(byFact, f.fact.startsWith('count ') ? 'resource counts' : f.fact, f.agree, f.total);
    for (const [t, n] of Object.entries(c.notCompared)) notCompared[t] = (notCompared[t] ?? 0) + n;
    for (const [t, n] of Object.entries(c.notComparedLinks)) notComparedLinks[t] = (notComparedLinks[t] ?? 0) + n;
  }
  const agree = messages.reduce((n, m) => n + m.comparison.agree, 0);
  const total = messages.reduce((n, m) => n + m.comparison.total, 0);
  return { messages, agree, total, ratio: total ? agree / total : 1, byType, byFact, notCompared, notComparedLinks };
}
