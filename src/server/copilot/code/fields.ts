/**
 * The sample a code node will receive, read for what code can address: where its records are (a list, a FHIR
 * Bundle's entries, a list inside an object, or one object) and which field paths they have, so that the words of
 * a request ("value", "birth date") become real paths (`valueQuantity.value`, `birthDate`).
 */

export type Segment = string | number;
export type FieldKind = 'number' | 'string' | 'boolean' | 'date' | 'array' | 'object' | 'human-name' | 'null';

export interface FieldPath {
  path: Segment[];
  kind: FieldKind;
  /** The words of its keys, lowercased (`valueQuantity.value` → value, quantity, value). */
  words: string[];
  /** Text values seen there, lowercased (short ones, a few): codes such as "female", "final", "AMB". */
  values: Set<string>;
}

export interface Records {
  kind: 'array' | 'bundle' | 'property' | 'single' | 'unknown';
  /** JavaScript for the records (or the one record, for `single`), on `input`. */
  expr: string;
  /** What it is, for the explanation. */
  label: string;
  items: Record<string, unknown>[];
  /** A list of plain values (numbers, strings): a record is its own value. */
  scalar?: boolean;
}

const MAX_ITEMS = 50;
const MAX_DEPTH = 4;
const DATE = /^\d{4}-\d{2}(-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?)?$/;
const IDENT = /^[A-Za-z_$][\w$]*$/;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export const isBundle = (v: unknown): v is { entry?: unknown[] } => isObject(v) && v.resourceType === 'Bundle';

/** camelCase, snake_case, kebab-case and digits → lowercase words. */
export function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/** Where the records of `sample` are. With no sample, code that accepts a list, a Bundle or one object. */
export function locateRecords(sample: unknown, wantsList: boolean): Records {
  if (sample === undefined) {
    return wantsList
      ? {
          kind: 'unknown',
          expr: 'Array.isArray(input) ? input : Array.isArray(input?.entry) ? input.entry.map((e) => e.resource) : [input]',
          label: "the input (a list, or a Bundle's entries)",
          items: [],
        }
      : { kind: 'single', expr: 'input', label: 'the input object', items: [] };
  }
  if (Array.isArray(sample)) {
    const items = sample.filter(isObject).slice(0, MAX_ITEMS);
    return {
      kind: 'array',
      expr: 'input',
      label: 'the input list',
      items,
      scalar: items.length === 0 && sample.some((v) => v !== null && typeof v !== 'object'),
    };
  }
  if (isBundle(sample)) {
    const entries = Array.isArray(sample.entry) ? sample.entry : [];
    const items = entries.map((e) => (isObject(e) ? e.resource : undefined)).filter(isObject);
    return {
      kind: 'bundle',
      expr: '(input.entry ?? []).map((e) => e.resource)',
      label: "the Bundle's entries (entry[].resource)",
      items: items.slice(0, MAX_ITEMS),
    };
  }
  // a list inside an object (`{patients: [...]}`); a FHIR resource is one record, whatever lists it holds
  if (isObject(sample) && wantsList && !('resourceType' in sample)) {
    const lists = Object.entries(sample).filter(([, v]) => Array.isArray(v) && v.some(isObject)) as [string, unknown[]][];
    const [key, list] = lists.sort((a, b) => b[1].length - a[1].length)[0] ?? [];
    if (key && list)
      return { kind: 'property', expr: `(${access('input', [key])} ?? [])`, label: `the list in ${key}`, items: list.filter(isObject).slice(0, MAX_ITEMS) };
  }
  return { kind: 'single', expr: 'input', label: 'the input object', items: isObject(sample) ? [sample] : [] };
}

/** `base.a?.b?.[0]` — optional steps after the first, so a missing part gives undefined rather than a TypeError. */
export function access(base: string, path: Segment[]): string {
  let out = base;
  path.forEach((s, i) => {
    const q = i === 0 ? '' : '?.';
    if (typeof s === 'number') out += `${q || '?.'}[${s}]`;
    else if (IDENT.test(s)) out += `${q || '.'}${s}`;
    else out += `${q}[${JSON.stringify(s)}]`;
  });
  return out;
}

export const pathText = (path: Segment[]) =>
  path
    .map((s) => (typeof s === 'number' ? `[${s}]` : s))
    .join('.')
    .replace(/\.\[/g, '[');

/** An HL7 v2 timestamp (YYYYMMDD[HHMM[SS]]) under a key that says it is one. */
const HL7_TS = /^\d{8}(\d{4}(\d{2}(\.\d+)?)?)?([+-]\d{4})?$/;
const TIME_KEY = /(date|time|ts|dt|dob|stamp|when|at)$/i;

function kindOf(v: unknown, key = ''): FieldKind {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'string') return DATE.test(v) || (HL7_TS.test(v) && TIME_KEY.test(key)) ? 'date' : 'string';
  if (Array.isArray(v)) return v.some((x) => isObject(x) && ('family' in x || 'given' in x)) ? 'human-name' : 'array';
  return isObject(v) && ('family' in v || 'given' in v) ? 'human-name' : 'object';
}

/** Every field path of the records (arrays of objects entered at their first element), first seen first. */
export function fieldPaths(items: Record<string, unknown>[]): FieldPath[] {
  const seen = new Map<string, FieldPath>();
  const visit = (value: unknown, path: Segment[], words: string[]) => {
    if (path.length) {
      const key = pathText(path);
      const kind = kindOf(value, String(path.at(-1)));
      let had = seen.get(key);
      if (!had) seen.set(key, (had = { path, kind, words, values: new Set() }));
      else if (had.kind === 'null') had.kind = kind;
      if (typeof value === 'string' && value.length <= 40 && had.values.size < 50) had.values.add(value.toLowerCase());
    }
    if (path.length >= MAX_DEPTH) return;
    if (isObject(value)) for (const [k, v] of Object.entries(value)) visit(v, [...path, k], [...words, ...keyWords(k)]);
    else if (Array.isArray(value) && isObject(value[0])) visit(value[0], [...path, 0], words);
  };
  for (const item of items) visit(item, [], []);
  return [...seen.values()];
}

/** Lowercase words of a phrase, plurals made singular ("observations" → observation; "status" stays). */
export function phraseWords(phrase: string): string[] {
  const words = keyWords(phrase);
  return words.filter((w, i) => !STOP.has(w) || (w === 'resource' && words[i + 1] === 'type')).map(singular);
}

export function singular(w: string): string {
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length >= 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w)) return w.slice(0, -1);
  return w;
}

const STOP = new Set([
  'the',
  'a',
  'an',
  'its',
  'their',
  'his',
  'her',
  'each',
  'every',
  'all',
  'field',
  'fields',
  'column',
  'columns',
  'property',
  'key',
  'of',
  'for',
  'in',
  'on',
  'to',
  'only',
  'just',
  'resource',
  'resources',
  'record',
  'records',
  'item',
  'items',
  'entry',
  'entries',
  'row',
  'rows',
]);

/** Words people use for a field, as the key words FHIR and most feeds use. */
const SYNONYMS: Record<string, string> = {
  dob: 'birth date',
  'date birth': 'birth date',
  birthday: 'birth date',
  sex: 'gender',
  mrn: 'identifier value',
  'first name': 'given',
  forename: 'given',
  'last name': 'family',
  surname: 'family',
  'family name': 'family',
  zip: 'postal code',
  'zip code': 'postal code',
  postcode: 'postal code',
  phone: 'telecom value',
  result: 'value',
};

export function normalizePhrase(phrase: string): string[] {
  const words = phraseWords(phrase);
  const joined = words.join(' ');
  return SYNONYMS[joined] ? phraseWords(SYNONYMS[joined]) : words;
}

const DATE_WORDS = new Set(['date', 'time', 'datetime', 'timestamp', 'when', 'day']);

/**
 * The path best named by `words`: every word must be in the path's keys; a last key equal to the phrase wins,
 * then the shallower path, then one of the wanted kind, then the first seen.
 */
export function bestPath(words: string[], paths: FieldPath[], want?: FieldKind): FieldPath | undefined {
  if (!words.length) return undefined;
  const joined = words.join('');
  let best: { p: FieldPath; score: number } | undefined;
  for (const p of paths) {
    // "start date" is period.start: a word saying it is a date is met by a date
    const met = (w: string) => p.words.includes(w) || p.words.map(singular).includes(w) || (DATE_WORDS.has(w) && p.kind === 'date');
    if (!words.every(met) || !words.some((w) => !DATE_WORDS.has(w) || p.words.includes(w))) continue;
    const last = [...p.path].reverse().find((s) => typeof s === 'string') as string | undefined;
    const lastKey = (last ?? '').toLowerCase().replace(/[^a-z0-9]/g, '');
    let score = 100 - 6 * p.path.length - 2 * (p.words.length - words.length);
    if (lastKey === joined || singular(lastKey) === joined) score += 50;
    if (want && (p.kind === want || (want === 'number' && p.kind === 'number'))) score += 25;
    if (want === 'number' && p.kind !== 'number') score -= 40;
    if (p.kind === 'object' && want !== 'object') score -= 15;
    if (!best || score > best.score) best = { p, score };
  }
  return best?.p;
}

/** A key for a phrase when there is no sample to look in: "birth date" → birthDate. */
export function camelKey(words: string[]): string {
  return words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('') || 'value';
}
