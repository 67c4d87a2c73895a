import { RESOURCE_WORDS } from '../fhir-terms';
import {
  access,
  bestPath,
  camelKey,
  fieldPaths,
  keyWords,
  normalizePhrase,
  pathText,
  type FieldKind,
  type FieldPath,
  type Records,
  type Segment,
} from './fields';
import type { Helper } from './helpers';
import type { Cmp, Conversion, Intents } from './read-request';

/** A field of the request, made concrete: how to read it from a record `r`, and what to call it in the output. */
export interface Field {
  asked: string;
  label: string;
  /** The sample path it reads (`valueQuantity.value`), or what it is computed from; null when there is no sample. */
  path: string | null;
  kind: FieldKind | 'computed';
  expr: (r: string) => string;
  helpers: Helper[];
  /** The path, when it is a plain one (for setting it in a copy of the record). */
  segments?: Segment[];
}

/** Resolution against the sample (or, with none, against the request's own words). */
export class Resolver {
  readonly paths: FieldPath[];
  readonly fields: { asked: string; path: string }[] = [];
  readonly warnings: string[] = [];
  /** The helpers the body calls. */
  readonly helpers = new Set<Helper>();

  /** With no sample, the request's words say the records are FHIR Observations: their number is valueQuantity.value. */
  constructor(
    readonly records: Records,
    private readonly observations = false,
  ) {
    this.paths = fieldPaths(records.items);
  }

  use(...helpers: Helper[]): void {
    for (const h of helpers) this.helpers.add(h);
  }

  get hasSample(): boolean {
    return this.records.items.length > 0;
  }

  private has(words: string[]): FieldPath | undefined {
    return bestPath(words, this.paths);
  }

  private plain(asked: string, path: Segment[], kind: FieldKind, label?: string): Field {
    const last = [...path].reverse().find((s) => typeof s === 'string') as string | undefined;
    const f: Field = { asked, label: label ?? last ?? 'value', path: pathText(path), kind, expr: (r) => access(r, path), helpers: [], segments: path };
    if (kind === 'human-name') return { ...f, expr: (r) => `nameOf(${access(r, path)})`, helpers: ['nameOf'] };
    return f;
  }

  private note(asked: string, path: string): void {
    if (!this.fields.some((f) => f.asked === asked)) this.fields.push({ asked, path });
  }

  /** Age in whole years, at death for a deceased patient. */
  private age(asked: string): Field {
    const born = this.has(['birth', 'date'])?.path ?? ['birthDate'];
    const died = this.paths.find((p) => p.path.length === 1 && /^deceased(DateTime)?$/.test(String(p.path[0])) && p.kind === 'date')?.path;
    const path = `${pathText(born)}${died ? ` (to ${pathText(died)} if deceased)` : ''}`;
    this.note(asked, path);
    return { asked, label: 'age', path, kind: 'computed', helpers: ['ageOf'], expr: (r) => `ageOf(${access(r, born)}${died ? `, ${access(r, died)}` : ''})` };
  }

  private bmi(asked: string): Field {
    const weight = bestPath(['weight'], this.paths, 'number')?.path ?? ['weight'];
    const height = bestPath(['height'], this.paths, 'number')?.path ?? ['height'];
    const w = (r: string) => (/lb|pound/i.test(String(weight.at(-1))) ? `${access(r, weight)} * 0.45359237` : access(r, weight));
    const h = (r: string) => (/(^|_)in(ch|ches)?$|Inches?$/i.test(String(height.at(-1))) ? `${access(r, height)} * 2.54` : access(r, height));
    const path = `${pathText(weight)} / ${pathText(height)}²`;
    this.note(asked, path);
    if (!this.hasSample) this.warnings.push('No sample: BMI reads weight (kg) and height (cm, or m when below 3) from the fields "weight" and "height".');
    return { asked, label: 'bmi', path, kind: 'computed', helpers: ['bmiOf'], expr: (r) => `bmiOf(${w(r)}, ${h(r)})` };
  }

  /**
   * The field a phrase names, or null when it names none (only record nouns, or nothing in the sample). `want`
   * prefers paths of that kind (numbers for numeric conditions).
   */
  field(phrase: string, want?: FieldKind, purpose: 'compare' | 'show' = 'compare'): Field | null {
    const asked = phrase
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^((?:the|a|an|each|every|all|their|its|only|just)\s+)+/i, '');
    let words = normalizePhrase(asked);
    const nouns = words.filter(isRecordNoun);
    if (nouns.length && nouns.length < words.length) words = words.filter((w) => !isRecordNoun(w));
    const joined = words.join(' ');
    if (this.records.scalar) return this.itself(asked);
    if (!words.length) return null;
    if (/^(age|aged|years old)$/.test(joined)) return this.age(asked);
    if (/^(bmi|body mass index)$/.test(joined)) return this.bmi(asked);
    if (!this.hasSample) {
      if (nouns.length === words.length) return null;
      if (joined === 'value' && this.observations) return this.valueField(asked, true);
      const key = camelKey(words);
      const kind = key === 'name' ? 'human-name' : (want ?? 'string');
      this.note(asked, key);
      return this.plain(asked, [key], kind, key);
    }
    // "by patient" on encounters: the reference to the patient (subject), not a field called patient
    const refersTo = nouns.length === words.length && words.length === 1 ? this.referenceTo(words[0]!) : undefined;
    const best = refersTo ?? bestPath(words, this.paths, want);
    if (!best || (!refersTo && nouns.length === words.length && best.path.length > 1)) return null;
    // a name that is a HumanName: the whole of it, not one of its parts
    const p =
      best.kind !== 'human-name' && /^(full )?names?$/.test(joined) ? (this.paths.find((x) => x.kind === 'human-name' && x.path.length === 1) ?? best) : best;
    const exact = String([...p.path].reverse().find((s) => typeof s === 'string') ?? '').toLowerCase() === words.join('');
    const leaf = p.kind === 'object' || p.kind === 'array' ? this.leafOf(p, purpose) : p;
    this.note(asked, pathText(leaf.path));
    return this.plain(asked, leaf.path, leaf.kind, exact ? String(p.path.at(-1)) : camelKey(words));
  }

  /** The value inside a FHIR structure: a CodeableConcept's code (or text, to show), a Quantity's value, a Period's start… */
  private leafOf(p: FieldPath, purpose: 'compare' | 'show'): FieldPath {
    const order: Segment[][] = purpose === 'compare' ? LEAVES_COMPARE : LEAVES_SHOW;
    for (const suffix of order) {
      const key = pathText([...p.path, ...suffix]);
      const hit = this.paths.find((x) => pathText(x.path) === key && x.kind !== 'object' && x.kind !== 'array');
      if (hit) return hit;
    }
    return p;
  }

  /** The record's main number (a FHIR Observation's valueQuantity.value, or the first number), for "above 100". */
  /** The Reference a record holds to another resource (`patient` → subject or patient; `encounter` → encounter). */
  private referenceTo(noun: string): FieldPath | undefined {
    const keys = noun === 'patient' ? ['patient', 'subject', 'beneficiary'] : [noun];
    for (const k of keys) {
      const hit = this.paths.find((p) => p.path.length === 2 && p.path[0] === k && p.path[1] === 'reference');
      if (hit && !this.records.items.every((i) => String(i.resourceType ?? '').toLowerCase() === noun)) return hit;
    }
    return undefined;
  }

  /**
   * The field whose values include `word` ("female" → gender, "active" → status, "amb" → class.code): a code
   * seen in the sample. Identifiers, references and URLs aside; the shallowest wins.
   */
  valueMatch(word: string): { field: Field; value: string } | null {
    const w = word.toLowerCase();
    if (w.length < 3 || !this.hasSample || isRecordNoun(w)) return null;
    const hit = this.paths
      .filter(
        (p) =>
          p.values.has(w) &&
          p.path[0] !== 'resourceType' &&
          !p.words.some((x) => ['id', 'reference', 'url', 'system', 'div', 'display', 'text', 'value'].includes(x)),
      )
      .sort((a, b) => a.path.length - b.path.length)[0];
    if (!hit) return null;
    this.note(word, pathText(hit.path));
    return { field: this.plain(word, hit.path, hit.kind), value: w };
  }

  /** Each item of a list of plain values. */
  private itself(asked: string): Field {
    this.note(asked || 'value', '(each item)');
    return { asked: asked || 'value', label: 'value', path: '(each item)', kind: 'computed', expr: (r) => r, helpers: [] };
  }

  valueField(asked: string, fhir = false): Field | null {
    if (this.records.scalar) return this.itself(asked);
    const p = bestPath(['value'], this.paths, 'number') ?? this.paths.find((x) => x.kind === 'number');
    if (!p) return this.hasSample ? null : this.plain(asked || 'value', fhir ? ['valueQuantity', 'value'] : ['value'], 'number', 'value');
    this.note(asked || 'value', pathText(p.path));
    return this.plain(asked || 'value', p.path, p.kind, 'value');
  }

  /** The records' main date (the shallowest: period.start before participant[0].period.start), for "after 2020-01-01". */
  dateField(asked: string): Field | null {
    const p = this.paths.filter((x) => x.kind === 'date').sort((a, b) => a.path.length - b.path.length)[0];
    if (!p) return null;
    this.note(asked || 'date', pathText(p.path));
    return this.plain(asked || 'date', p.path, 'date');
  }

  /** Every date of a record, on plain paths (for "format the dates"). */
  dateFields(): Field[] {
    return this.paths
      .filter((p) => p.kind === 'date' && p.path.every((s) => typeof s === 'string') && p.path.length <= 2)
      .map((p) => this.plain(pathText(p.path), p.path, 'date'));
  }
}

const LEAVES_COMPARE: Segment[][] = [['coding', 0, 'code'], ['code'], ['value'], ['reference'], ['start'], [0, 'value'], [0, 'code'], ['text'], ['display']];
const LEAVES_SHOW: Segment[][] = [
  ['text'],
  ['coding', 0, 'display'],
  ['display'],
  ['value'],
  ['coding', 0, 'code'],
  ['code'],
  ['reference'],
  ['start'],
  [0, 'value'],
  [0, 'text'],
  [0, 'code'],
];

/** A word that names records rather than a field ("patients", "observations", "lab results"). */
export function isRecordNoun(word: string): boolean {
  return RESOURCE_WORDS.some(([re]) => re.test(word)) && !['result', 'reading', 'measurement'].includes(word);
}

/** The condition `field cmp value` on a record, as JavaScript. Missing values never pass a comparison. */
export function conditionJs(f: Field, cmp: Cmp, value: string | number | null, date: boolean, r: string): string {
  const x = f.expr(r);
  if (cmp === 'missing') return `${x} == null`;
  if (cmp === 'present') return `${x} != null`;
  if (date) return `(toDate(${x})?.getTime() ?? NaN) ${cmp} ${Date.parse(String(value))}`;
  if (typeof value === 'number') return `(${x} ?? NaN) ${cmp} ${value}`;
  return `String(${x} ?? '').toLowerCase() ${cmp} ${JSON.stringify(String(value).toLowerCase())}`;
}

const UNIT_TEST: Record<string, string> = {
  'mg/dl': '/^mg\\/dl$/i',
  'mmol/l': '/^mmol\\/l$/i',
  lb: '/^(lbs?|\\[lb_av\\])$/i',
  kg: '/^kg$/i',
  in: '/^(in|\\[in_i\\])$/i',
  cm: '/^cm$/i',
  '[degF]': '/^(\\[degF\\]|°?F|degF)$/i',
  Cel: '/^(Cel|°?C|degC)$/i',
};
const UCUM: Record<string, string> = { 'mg/dl': 'mg/dL', 'mmol/l': 'mmol/L', lb: '[lb_av]', kg: 'kg', in: '[in_i]', cm: 'cm', '[degF]': '[degF]', Cel: 'Cel' };
const KEY_UNIT: Record<string, RegExp> = {
  'mg/dl': /mg_?dl/i,
  'mmol/l': /mmol_?l/i,
  lb: /lbs?|pounds?/i,
  kg: /kgs?|kilos?/i,
  in: /inch(es)?|(?<=_)in$/i,
  cm: /cm/i,
  '[degF]': /fahrenheit|(?<=_)f$/i,
  Cel: /celsius|(?<=_)c$/i,
};
const KEY_TOKEN: Record<string, string> = { 'mg/dl': 'mg_dl', 'mmol/l': 'mmol_l', lb: 'lb', kg: 'kg', in: 'in', cm: 'cm', '[degF]': 'f', Cel: 'c' };

export interface ConversionPlan {
  field: Field;
  /** JavaScript for the converted value of record `r`. */
  value: (r: string) => string;
  /** For a FHIR Quantity: convert only when its unit is the `from` unit, and set unit and code. */
  quantity: { parent: Segment[]; hasCode: boolean; test: string; unit: string; code: string } | null;
  label: string;
  conversion: Conversion;
}

export function planConversion(res: Resolver, conv: Conversion & { phrase: string | null }, fhirWords: boolean): ConversionPlan | null {
  const field = res.hasSample
    ? (conv.phrase && res.field(conv.phrase, 'number')) || res.field(conv.quantity, 'number') || res.valueField('value')
    : fhirWords
      ? res.valueField('value', true)
      : res.field(conv.phrase ?? conv.quantity, 'number');
  if (!field) return null;
  const value = (r: string) => `round(${conv.js.replace(/\bv\b/g, field.expr(r))}, ${conv.digits})`;
  const seg = field.segments ?? [];
  const parent = seg.slice(0, -1);
  const siblings = res.paths.filter((p) => p.path.length === seg.length && pathText(p.path.slice(0, -1)) === pathText(parent)).map((p) => p.path.at(-1));
  const isQuantity = seg.at(-1) === 'value' && parent.length > 0 && (siblings.includes('unit') || siblings.includes('code') || !res.hasSample);
  const key = String(seg.at(-1) ?? field.label);
  const label = KEY_UNIT[conv.from.id]?.test(key) ? key.replace(KEY_UNIT[conv.from.id]!, KEY_TOKEN[conv.to.id]!) : field.label;
  const quantity = isQuantity
    ? {
        parent,
        hasCode: siblings.includes('code') || !res.hasSample,
        test: UNIT_TEST[conv.from.id]!,
        unit: conv.to.label === '[degF]' ? '°F' : conv.to.label === 'Cel' ? '°C' : conv.to.label,
        code: UCUM[conv.to.id]!,
      }
    : null;
  return { field, value, quantity, label, conversion: conv };
}

export { keyWords };
