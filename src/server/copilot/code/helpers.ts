/**
 * The small functions a generated code-node body may need, as JavaScript source (plain ECMAScript: the code
 * node's QuickJS sandbox has no libraries). A body declares only the ones it calls, before its first statement.
 */
export const HELPERS = {
  ageOf: [
    '/** Whole years from a FHIR date (YYYY, YYYY-MM or YYYY-MM-DD) to `until` (default: today). */',
    'function ageOf(birthDate, until) {',
    '  if (!birthDate) return null;',
    '  const born = new Date(String(birthDate));',
    '  const end = until ? new Date(String(until)) : new Date();',
    '  if (isNaN(born.getTime()) || isNaN(end.getTime())) return null;',
    '  let years = end.getUTCFullYear() - born.getUTCFullYear();',
    '  const months = end.getUTCMonth() - born.getUTCMonth();',
    '  if (months < 0 || (months === 0 && end.getUTCDate() < born.getUTCDate())) years--;',
    '  return years;',
    '}',
  ],
  nameOf: [
    '/** One display name from a FHIR HumanName (or a list of them: the official one first), or a plain string. */',
    'function nameOf(name) {',
    '  if (name == null) return null;',
    "  if (typeof name === 'string') return name;",
    '  const list = Array.isArray(name) ? name : [name];',
    "  const n = list.find((x) => x && x.use === 'official') || list.find((x) => x && x.use !== 'old') || list[0];",
    '  if (!n) return null;',
    '  if (n.text) return n.text;',
    '  const parts = [...(n.prefix || []), ...(n.given || []), n.family, ...(n.suffix || [])].filter(Boolean);',
    "  return parts.length ? parts.join(' ') : null;",
    '}',
  ],
  toDate: [
    '/** A Date from an ISO date/time or an HL7 v2 timestamp (YYYYMMDD[HHMM[SS]]); null when it is neither. */',
    'function toDate(value) {',
    "  if (value == null || value === '') return null;",
    '  const s = String(value);',
    '  const hl7 = /^(\\d{4})(\\d{2})(\\d{2})(\\d{2})?(\\d{2})?(\\d{2})?/.exec(s);',
    "  const d = hl7 && !s.includes('-') ? new Date(Date.UTC(+hl7[1], +hl7[2] - 1, +hl7[3], +(hl7[4] || 0), +(hl7[5] || 0), +(hl7[6] || 0))) : new Date(s);",
    '  return isNaN(d.getTime()) ? null : d;',
    '}',
  ],
  formatDate: [
    '/** A date written with YYYY, MM, DD, HH, mm, ss in `pattern` (UTC), or an ISO timestamp for "ISO". */',
    'function formatDate(value, pattern) {',
    '  const d = toDate(value);',
    '  if (!d) return value == null ? null : value;',
    "  if (pattern === 'ISO') return d.toISOString();",
    "  const pad = (n) => String(n).padStart(2, '0');",
    [
      '  const parts = { YYYY: String(d.getUTCFullYear()), MM: pad(d.getUTCMonth() + 1), DD:',
      'pad(d.getUTCDate()), HH: pad(d.getUTCHours()), mm: pad(d.getUTCMinutes()), ss: pad(d.getUTCSeconds()) };',
    ].join(' '),
    '  return pattern.replace(/YYYY|MM|DD|HH|mm|ss/g, (t) => parts[t]);',
    '}',
  ],
  flatten: [
    '/** Nested objects and lists as one level of dotted keys (`name.0.family`). */',
    'function flatten(value, prefix, out) {',
    '  out = out || {};',
    "  if (value !== null && typeof value === 'object') {",
    '    const keys = Object.keys(value);',
    '    if (keys.length === 0 && prefix) out[prefix] = value;',
    "    for (const k of keys) flatten(value[k], prefix ? prefix + '.' + k : k, out);",
    '  } else if (prefix) {',
    '    out[prefix] = value;',
    '  }',
    '  return out;',
    '}',
  ],
  round: ['function round(n, digits) {', '  const f = Math.pow(10, digits);', '  return Math.round(n * f) / f;', '}'],
  compare: [
    '/** Sort order: numbers and dates by value, text by its characters; missing values last. */',
    'function compare(a, b) {',
    '  if (a == null || b == null) return a == null ? (b == null ? 0 : 1) : -1;',
    "  if (typeof a === 'number' && typeof b === 'number') return a - b;",
    '  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;',
    '}',
  ],
  bmiOf: [
    '/** Body mass index (kg/m²) from a weight in kg and a height in cm or m, to one decimal. */',
    'function bmiOf(weightKg, height) {',
    "  if (typeof weightKg !== 'number' || typeof height !== 'number' || height <= 0) return null;",
    '  const metres = height > 3 ? height / 100 : height;',
    '  return round(weightKg / (metres * metres), 1);',
    '}',
  ],
} as const;

export type Helper = keyof typeof HELPERS;

/** Helpers that call others. */
const NEEDS: Partial<Record<Helper, Helper[]>> = { formatDate: ['toDate'], bmiOf: ['round'] };

/** The declarations of `used` (and what they call), in a fixed order. */
export function helperSource(used: Iterable<Helper>): string[] {
  const all = new Set<Helper>();
  const add = (h: Helper) => {
    if (all.has(h)) return;
    all.add(h);
    for (const n of NEEDS[h] ?? []) add(n);
  };
  for (const h of used) add(h);
  const out: string[] = [];
  for (const h of Object.keys(HELPERS) as Helper[]) if (all.has(h)) out.push(...HELPERS[h], '');
  return out;
}
