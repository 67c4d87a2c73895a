import { sentences, words } from './text';

/** Words that mark a sentence as clinically meaningful (a finding, a plan, a diagnosis). */
const CLINICAL = new RegExp(
  String.raw`\b(diagnos\w*|impression|assessment|plan|history|presents?|complain\w*|pain|fever|admit\w*|discharg\w*|` +
    String.raw`prescrib\w*|started|mg|dose|allerg\w*|abnormal|elevated|decreased|positive|negative|recommend\w*|` +
    String.raw`follow[- ]?up|symptom\w*|treat\w*|result\w*|chronic|acute)\b`,
  'gi',
);
const STOP = new Set('the a an and or of to in on for with at by from is was were be been are as that this it its his her their patient'.split(' '));

export interface SummaryOptions {
  maxSentences?: number;
  maxWords?: number;
}

/**
 * An extractive summary: sentences scored by how many of the text's frequent content words and clinical
 * terms they hold, the best kept in their original order.
 */
export function summarize(text: string, o: SummaryOptions = {}): string {
  const all = sentences(text);
  if (all.length === 0) return '';
  const freq = new Map<string, number>();
  for (const w of words(text.toLowerCase())) {
    const k = w.replace(/[^a-z0-9]/g, '');
    if (k.length > 2 && !STOP.has(k)) freq.set(k, (freq.get(k) ?? 0) + 1);
  }
  const scored = all.map((s, i) => {
    const ws = words(s.toLowerCase())
      .map((w) => w.replace(/[^a-z0-9]/g, ''))
      .filter((w) => w.length > 2 && !STOP.has(w));
    const content = ws.reduce((n, w) => n + (freq.get(w) ?? 0), 0) / Math.max(3, ws.length);
    const clinical = (s.match(CLINICAL) ?? []).length;
    return { s, i, score: content + clinical * 2 + (i === 0 ? 1 : 0) };
  });
  const maxSentences = o.maxSentences ?? 3;
  const kept = [...scored]
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, maxSentences)
    .sort((a, b) => a.i - b.i);
  let out = kept.map((k) => k.s).join(' ');
  if (o.maxWords && words(out).length > o.maxWords) out = `${words(out).slice(0, o.maxWords).join(' ')}…`;
  return out;
}
