import { RESOURCE_WORDS } from '../fhir-terms';
import { readConvert } from './read-convert';

/**
 * What a request for a code node asks for, read from its words alone (the sample is consulted later, in
 * resolve.ts): conditions to keep records by, an order, duplicates to drop, counts or groups, the fields to
 * return, renames, unit conversions, date formats, flattening. Field names stay phrases here ("a value",
 * "birth date"); each operation keeps the words it was read from.
 */

export type Cmp = '>' | '>=' | '<' | '<=' | '===' | '!==' | 'missing' | 'present';

export interface FilterIntent {
  phrase: string;
  cmp: Cmp;
  value: string | number | null;
  /** The value is a date (born before 1970, after 2020-01-01): compared as instants. */
  date: boolean;
  text: string;
}

export interface Unit {
  id: string;
  label: string;
}

export interface Conversion {
  quantity: string;
  from: Unit;
  to: Unit;
  /** JavaScript turning `v` (in `from`) into `to`. */
  js: string;
  digits: number;
}

export interface Intents {
  types: string[];
  /** Drop the matching records rather than keep them (remove, exclude, drop, filter out). */
  negate: boolean;
  filters: FilterIntent[];
  sort: { phrase: string; desc: boolean } | null;
  dedupe: { phrase: string | null } | null;
  group: { phrase: string; count: boolean } | null;
  count: boolean;
  /** Fields to return (pick, select, list…): the output has only these. */
  project: string[];
  /** Fields to add to each record (compute, calculate, add…). */
  add: string[];
  renames: { phrase: string; to: string }[];
  convert: (Conversion & { phrase: string | null }) | null;
  formatDate: { phrases: string[]; pattern: string } | null;
  flatten: boolean;
  /** "with status active": a field and the value it must have (kept when the sample has that value there). */
  pairs: { phrase: string; value: string; text: string }[];
  /** "who are deceased", "that are not active": a state, a field to be present or a value to be held. */
  states: { word: string; not: boolean; text: string }[];
  /** The request talks about several records (each, every, list, a plural resource noun). */
  plural: boolean;
}

// prettier-ignore
const CMP_WORDS: [string, Cmp][] = [
  ['greater than or equal to', '>='],
  ['less than or equal to', '<='],
  ['no less than', '>='],
  ['no more than', '<='],
  ['at least', '>='],
  ['at most', '<='],
  ['greater than', '>'],
  ['more than', '>'],
  ['higher than', '>'],
  ['larger than', '>'],
  ['bigger than', '>'],
  ['exceeding', '>'],
  ['exceeds', '>'],
  ['above', '>'],
  ['over', '>'],
  ['less than', '<'],
  ['lower than', '<'],
  ['smaller than', '<'],
  ['below', '<'],
  ['under', '<'],
  ['not equal to', '!=='],
  ['other than', '!=='],
  ['is not', '!=='],
  ["isn't", '!=='],
  ['equal to', '==='],
  ['equals', '==='],
  ['>=', '>='],
  ['<=', '<='],
  ['!=', '!=='],
  ['>', '>'],
  ['<', '<'],
  ['=', '==='],
  ['is', '==='],
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const CMP_RE = new RegExp(
  `(?<![\\w])(${CMP_WORDS.map(([w]) => escape(w)).join('|')})(?![\\w])\\s*("[^"]*"|'[^']*'|-?\\d+(?:\\.\\d+)?(?:-\\d{2}(?:-\\d{2})?)?|[a-z][\\w-]*)`,
  'gi',
);
/** Words that end a field phrase looking backwards from a comparison. */
// prettier-ignore
const CONNECTORS = new Set(['with', 'where', 'whose', 'when', 'if', 'having', 'and', 'or', 'that', 'which', 'has', 'have', 'keep', 'only', 'filter',
                            'remove', 'drop', 'exclude', 'select', 'find']);
const FILLER = new Set(['is', 'are', 'was', 'were', 'a', 'an', 'the', 'its', 'their', 'of', 'be']);

export const DATE_VALUE = /^\d{4}(-\d{2}(-\d{2})?)?$/;

function fieldBefore(text: string, end: number, needConnector: boolean): string | null {
  const words = text.slice(0, end).trim().split(/\s+/).filter(Boolean);
  const phrase: string[] = [];
  let found = false;
  for (let i = words.length - 1; i >= 0 && phrase.length < 4; i--) {
    const w = words[i]!.replace(/[^\w'/.-]/g, '');
    if (CONNECTORS.has(w.toLowerCase())) {
      found = true;
      break;
    }
    if (/[,;:]$/.test(words[i]!)) {
      if (phrase.length) break;
    }
    phrase.unshift(w);
  }
  const kept = phrase.filter((w) => !FILLER.has(w.toLowerCase()));
  if (needConnector && !found) return null;
  return kept.join(' ');
}

function literal(raw: string): { value: string | number; date: boolean } {
  if (/^["'].*["']$/.test(raw)) return { value: raw.slice(1, -1), date: false };
  if (DATE_VALUE.test(raw) && raw.length >= 4 && (raw.includes('-') || /^(1[89]|20)\d\d$/.test(raw))) return { value: raw, date: raw.includes('-') };
  const n = Number(raw);
  return Number.isFinite(n) ? { value: n, date: false } : { value: raw, date: false };
}

function readFilters(request: string): FilterIntent[] {
  const out: FilterIntent[] = [];
  // "is below 50" is "below 50", not "is" "below"
  const text = request.replace(
    new RegExp(
      String.raw`\b(?:is|are|was|were)\s+(?=(?:greater|less|more|higher|lower|larger|smaller|bigger|above|below|over|under|` +
        String.raw`exceeding|at least|at most|no less|no more|equal to)\b)`,
      'gi',
    ),
    '',
  );
  const age = /\b(older|younger)\s+than\s+(\d+)/gi;
  for (const m of text.matchAll(age))
    out.push({ phrase: 'age', cmp: m[1]!.toLowerCase() === 'older' ? '>' : '<', value: Number(m[2]), date: false, text: m[0] });
  const born = /\bborn\s+(before|after|in)\s+(\d{4}(?:-\d{2}(?:-\d{2})?)?)/gi;
  for (const m of text.matchAll(born)) {
    const year = m[2]!;
    const when = m[1]!.toLowerCase();
    if (when === 'in' && year.length === 4) {
      out.push({ phrase: 'birth date', cmp: '>=', value: `${year}-01-01`, date: true, text: m[0] });
      out.push({ phrase: 'birth date', cmp: '<', value: `${Number(year) + 1}-01-01`, date: true, text: m[0] });
    } else
      out.push({
        phrase: 'birth date',
        cmp: when === 'before' ? '<' : '>=',
        value: year.length === 4 && when === 'after' ? `${Number(year) + 1}-01-01` : year.length === 4 ? `${year}-01-01` : year,
        date: true,
        text: m[0],
      });
  }
  const dated = /\b(before|after|since)\s+(\d{4}-\d{2}(?:-\d{2})?)/gi;
  for (const m of text.matchAll(dated)) {
    if (/born\s+$/i.test(text.slice(0, m.index))) continue;
    const phrase = fieldBefore(text, m.index, false) ?? '';
    out.push({ phrase, cmp: m[1]!.toLowerCase() === 'before' ? '<' : '>=', value: m[2]!, date: true, text: m[0] });
  }
  for (const m of text.matchAll(CMP_RE)) {
    const word = m[1]!.toLowerCase();
    const cmp = CMP_WORDS.find(([w]) => w === word)![1];
    const before = text.slice(0, m.index);
    if (/\b(older|younger)\s*$/i.test(before) || /\bborn\s*$/i.test(before)) continue;
    if (cmp === '===' && /^(a|an|the|to|in|as|not)$/i.test(m[2]!)) continue;
    const equality = cmp === '===' || cmp === '!==';
    const phrase = fieldBefore(text, m.index, equality);
    if (phrase === null) continue;
    const v = literal(m[2]!);
    if (!equality && typeof v.value !== 'number' && !v.date) continue;
    out.push({ phrase, cmp, value: v.value, date: v.date, text: m[0].trim() });
  }
  const missing =
    /\b(?:missing|without(?: an?)?|with no|lacking|that have no|has no|have no)\s+([a-z][\w ]*?)(?=$|[,.;]|\s+(?:and|or|then|sorted|sort|order)\b)/gi;
  for (const m of text.matchAll(missing)) out.push({ phrase: m[1]!, cmp: 'missing', value: null, date: false, text: m[0] });
  const present = /\b(?:that have|which have|having|with an?)\s+([a-z][\w ]*?)(?=$|[,.;]|\s+(?:and|or|then|sorted|sort|order)\b)/gi;
  for (const m of text.matchAll(present)) {
    if (out.some((f) => f.text && m[0].includes(f.text))) continue;
    out.push({ phrase: m[1]!, cmp: 'present', value: null, date: false, text: m[0] });
  }
  return out;
}

const PHRASE_END =
  '(?=$|[,.;:]|\\s+(?:and then|then|where|whose|who|with|without|missing|having|that|which|if|when|sorted|sort|order|' +
  'ordered|grouped|group|by|per|from|for each|in (?:mmol|mg|kg|lb|cm|in)|as|into|converted|convert|converting|formatted|' +
  'format|renamed|rename|rounded|flattened|flatten|descending|ascending|desc|asc|newest|oldest|latest|highest|lowest|' +
  'largest|smallest|earliest|most recent|born|before|after|since|older|younger|above|below|over|under|greater|less|more|' +
  'at least|at most|is|are|was|were)\\b)';

/** The end of a single field's phrase ("sort by gender and …"). */
const FIELD_END = PHRASE_END.replace('(?:and then|', '(?:and|or|');

function readSort(text: string): Intents['sort'] {
  const m = new RegExp(
    `\\b(?:sort|sorted|order|ordered|rank|ranked|arrange)\\b(?:\\s+[\\w']+){0,3}?\\s+by\\s+(?:the\\s+|their\\s+|its\\s+)?([a-z][\\w ]*?)${FIELD_END}`,
    'i',
  ).exec(text);
  // "sort them, highest first": by the items themselves (a list of plain values)
  const found = m ?? /\b(?:sort|order|rank)\b(?:\s+(?:them|it|the \w+|these|those|\w+s))?/i.exec(text);
  if (!found) return null;
  const phrase = m ? m[1]!.trim() : '';
  const rest = text.slice(found.index + found[0].length);
  const desc =
    /^\s*,?\s*(?:in\s+)?(desc|descending|reverse|decreasing|(?:newest|latest|most recent|highest|largest|biggest)(?:\s+first)?)\b/i.test(rest) ||
    /\b(newest|latest|most recent|highest|largest|biggest) first\b/i.test(text) ||
    (/^\s*,?\s*oldest first\b/i.test(rest) && /\bage\b/i.test(phrase));
  return { phrase, desc };
}

function readDedupe(text: string): Intents['dedupe'] {
  const m = /\b(?:dedupe|de-?dup(?:licate)?|deduplicate|remove duplicates?|drop duplicates?|without duplicates|unique|distinct)\b/i.exec(text);
  if (!m) return null;
  const after = new RegExp(`^[^.;]*?\\b(?:by|on|per|of)\\s+(?:the\\s+|their\\s+)?([a-z][\\w ]*?)${FIELD_END}`, 'i').exec(text.slice(m.index + m[0].length));
  return { phrase: after ? after[1]!.trim() : null };
}

function readGroup(text: string): Intents['group'] {
  const m = new RegExp(`\\b(count|tally|group|grouped|bucket)\\b[^.;]*?\\b(?:by|per)\\s+(?:the\\s+|their\\s+|its\\s+)?([a-z][\\w ]*?)${FIELD_END}`, 'i').exec(
    text,
  );
  if (!m) return null;
  return { phrase: m[2]!.trim(), count: /^(count|tally)$/i.test(m[1]!) || /\b(how many|count|number of)\b/i.test(text) };
}

const PROJECT_VERBS = new RegExp(
  String.raw`\b(?:pick|select|extract|keep only|keep|return|returns|list|show|output|get|take|include|give me|map (?:each|` +
    String.raw`every|the)?\s*\w*\s*to|with just|with only|with (?:their|its)|along with|only)\b`,
  'gi',
);
const ADD_VERBS = /\b(?:compute|calculate|add|derive|work out|append)\b/gi;

function readPhrases(text: string, verbs: RegExp): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(verbs)) {
    const rest = text.slice(m.index + m[0].length);
    const span = new RegExp(`^\\s*([^]*?)${PHRASE_END.replace('[,.;:]', '[.;:]')}`, 'i').exec(rest)?.[1] ?? '';
    const cleaned = span
      .replace(/\b[\w-]+'s\b/gi, ' ')
      .replace(/\b(?:of|for)\s+(?:each|every|all)\s+\w+/gi, ' ')
      .replace(/\b(?:fields?|columns?|properties)\b/gi, ' ');
    for (const part of cleaned.split(/,|\band\b|&|\+|\//i)) {
      const p = part.trim();
      if (p) out.push(p);
    }
  }
  return out;
}

function readRenames(text: string): Intents['renames'] {
  const out: Intents['renames'] = [];
  for (const m of text.matchAll(/\brename\s+(?:the\s+)?([A-Za-z][\w .]*?)\s+(?:to|as|into)\s+["'`]?([A-Za-z_$][\w$]*)["'`]?/gi))
    out.push({ phrase: m[1]!.trim(), to: m[2]! });
  for (const m of text.matchAll(/\b(?:call|name)\s+(?:the\s+)?([A-Za-z][\w .]*?)\s+["'`]([A-Za-z_$][\w$]*)["'`]/gi))
    out.push({ phrase: m[1]!.trim(), to: m[2]! });
  return out;
}

// prettier-ignore
const DATE_PATTERNS: [RegExp, string][] = [
  [/\biso(?:[\s-]?8601)?\b(?!\s*date)/i, 'ISO'],
  [/\byyyy-mm-dd(?:[ t]hh:mm(?::ss)?)?\b/i, ''],
  [/\bdd\/mm\/yyyy\b/i, 'DD/MM/YYYY'],
  [/\bmm\/dd\/yyyy\b/i, 'MM/DD/YYYY'],
  [/\bdd\.mm\.yyyy\b/i, 'DD.MM.YYYY'],
  [/\bdd-mm-yyyy\b/i, 'DD-MM-YYYY'],
  [/\byyyymmdd(?:hhmm(?:ss)?)?\b/i, ''],
  [/\b(?:iso date|date only|plain date|just the date)\b/i, 'YYYY-MM-DD'],
];

function readFormatDate(text: string): Intents['formatDate'] {
  if (!/\b(?:format|reformat|convert|turn|write|parse|normali[sz]e|change|show|as)\b/i.test(text)) return null;
  let pattern: string | null = null;
  for (const [re, p] of DATE_PATTERNS) {
    const m = re.exec(text);
    if (!m) continue;
    pattern =
      p ||
      m[0]
        .toUpperCase()
        .replace(/T(?=HH)/, 'T')
        .replace(/HH:MM(:SS)?/, (x) => x.replace(/MM/, 'mm').replace(/SS/, 'ss'))
        .replace(/HHMM(SS)?/, (x) => x.replace(/MM/, 'mm').replace(/SS/, 'ss'));
    break;
  }
  if (!pattern && /\b(?:hl7|yyyymmdd)\b[^.]*\b(?:timestamps?|dates?|times?)\b/i.test(text)) pattern = 'ISO';
  if (!pattern) return null;
  const m =
    /\b(?:format|reformat|convert|turn|write|parse|normali[sz]e|change|show)\s+(?:the\s+|all\s+|each\s+|every\s+)?([a-z][\w ]*?)\s+(?:as|to|into|in)\b/i.exec(
      text,
    );
  const phrases = m?.[1]
    ? m[1]
        .split(/,|\band\b/)
        .map((s) => s.trim().replace(/^hl7\s+/i, ''))
        .filter(Boolean)
    : ['dates'];
  return { phrases, pattern };
}

/** "with status active", "where clinical status resolved": (field, value) candidates, one- and two-word fields. */
function readPairs(text: string): Intents['pairs'] {
  const out: Intents['pairs'] = [];
  const notValue = (w: string) =>
    CMP_WORDS.some(([c]) => c.split(' ')[0] === w.toLowerCase()) || /^(and|or|then|sorted|sort|in|to|from|by|for|as|is|are|of|the|a|an|their|its)$/i.test(w);
  for (const m of text.matchAll(/\b(?:with|having|whose|where)\s+(?:a |an |the )?([a-z]\w*)\s+([A-Za-z][\w.-]*)(?:\s+([A-Za-z][\w.-]*))?/gi)) {
    const [a, b, c] = [m[1]!, m[2]!, m[3]]; // the first two groups always take part in a match
    if (!notValue(b)) out.push({ phrase: a, value: b, text: `${a} ${b}` });
    if (c && !notValue(b) && !notValue(c)) out.push({ phrase: `${a} ${b}`, value: c, text: `${a} ${b} ${c}` });
  }
  return out;
}

/** FHIR resource types the request names (its nouns: "observations", "lab results", "patients"). */
function readTypes(text: string): string[] {
  const out: string[] = [];
  for (const [re, type] of RESOURCE_WORDS) if (re.test(text.toLowerCase()) && !out.includes(type)) out.push(type);
  return out;
}

/** Reads a request for a code node. Deterministic: the same words give the same intents. */
export function readRequest(description: string): Intents {
  const text = description
    .replace(/\bresource\s*type\b/gi, 'resourceType')
    .replace(/\s+/g, ' ')
    .trim();
  const filters = readFilters(text);
  const group = readGroup(text);
  return {
    types: readTypes(text),
    negate: /\b(?:remove|drop|exclude|discard|filter out|skip|ignore|reject)\b/i.test(text) && !/\bremove duplicates?\b/i.test(text),
    filters,
    sort: readSort(text),
    dedupe: readDedupe(text),
    group,
    count: !group && /\b(?:how many|count|number of|total)\b/i.test(text),
    project: readPhrases(text, PROJECT_VERBS),
    add: [...readPhrases(text, ADD_VERBS), ...(/\b(?:join|combine|concatenate)\b[^.;]*\bnames?\b|\b(?:full|display) names?\b/i.test(text) ? ['name'] : [])],
    renames: readRenames(text),
    convert: readConvert(text),
    formatDate: readFormatDate(text),
    pairs: readPairs(text),
    states: [...text.matchAll(/\b(?:who|which|that)\s+(?:are|is|were|was)\s+(not\s+)?([a-z]\w+)\b/gi)]
      .filter((m) => !/^(greater|less|more|higher|lower|above|below|over|under|older|younger|born|equal|missing|at|in|on|the|a|an)$/i.test(m[2]!))
      .map((m) => ({ word: m[2]!, not: Boolean(m[1]), text: m[0] })),
    flatten: /\bflatten(?:ed|s)?\b|\bunnest\b/i.test(text),
    plural:
      /\b(?:each|every|all|list|entries|records|items|rows|array|bundle)\b/i.test(text) ||
      /\b\w+s\b/.test(
        text.toLowerCase().replace(/\b(?:is|was|has|its|this|as|us|status|gender|address|class|bmi|mmol|ms|lbs|days|years|plus|less|unless)\b/g, ''),
      ),
  };
}
