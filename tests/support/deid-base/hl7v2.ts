import { decode, encode, type Hl7v2Delimiters, type Hl7v2Message, type Hl7v2Segment, SEGMENTS } from '@/clinical/hl7v2';
import { type BirthDatePolicy, birthDateOutcome, checkKey, pseudonym, shiftDays, shiftFhirDate, shiftHl7Date } from './keyed';
import { KnownIdentifiers, Scrubber } from './scrub';
import { zip3 } from './zip3';

/**
 * What happens to a field (every repetition of it):
 * - `id` (CX, ST, DLN…): the identifier (component 1) becomes its keyed pseudonym — the same one the FHIR side
 *   gives the same value — other components (assigning authority, type code) stay;
 * - `person` (XCN): the id (component 1) is pseudonymized, the name and the rest removed;
 * - `name`, `phone`, `redact`: the field is emptied;
 * - `address` (XAD): only the state, the ZIP cut to 3 digits (000 for small areas), the country and the address
 *   type remain;
 * - `location` (PL): only the point of care (component 1) remains;
 * - `date`: moved by the patient's shift (precision kept); `birth`: the birth-date policy;
 * - `organization` (XON): the name (component 1) removed, its ID numbers (components 3 and 10) pseudonymized;
 * - `text`: free text scrubbed (names and identifiers known from the message, phones, emails, SSNs, URLs, dates).
 */
export type Hl7FieldAction = 'id' | 'person' | 'name' | 'phone' | 'redact' | 'address' | 'location' | 'organization' | 'date' | 'birth' | 'text';

/**
 * What each data type gets, in every segment the field table (../hl7v2/fields) knows: by construction, a field
 * of a person, address, phone, identifier or organization type is handled wherever it is, in every repetition.
 */
// prettier-ignore
const BY_TYPE: Readonly<Record<string, Hl7FieldAction>> = {
  XPN: 'name',
  XCN: 'person',
  XAD: 'address',
  XTN: 'phone',
  CX: 'id',
  EI: 'id',
  EIP: 'id',
  DLN: 'id',
  XON: 'organization',
  PL: 'location',
  ED: 'redact',
  TS: 'date',
  DTM: 'date',
  DT: 'date',
};

/**
 * The segments that describe a person (the patient, a relative, a guarantor, an insured): each of their ST fields
 * (SSNs, policy and group numbers, Medicare and Medicaid numbers…) is the person's, and is pseudonymized.
 */
export const HL7_PERSON_SEGMENTS: ReadonlySet<string> = new Set(['PID', 'PD1', 'NK1', 'GT1', 'IN1', 'IN2', 'IN3', 'MRG']);

/** Segments about the sending system and the exchange, not a person or a place of care: left as they are (but MSH-7). */
const SYSTEM_SEGMENTS = new Set(['MSH', 'SFT', 'MSA', 'ERR', 'BHS', 'BTS', 'FHS', 'FTS']);

/** The explicit table (HL7_FIELDS) over what the field table's data types give (BY_TYPE, person segments' ST, numbers and places). */
function derived(segment: string): Readonly<Record<number, Hl7FieldAction>> {
  const out: Record<number, Hl7FieldAction> = {};
  const def = SYSTEM_SEGMENTS.has(segment) ? undefined : SEGMENTS[segment];
  def?.fields.forEach(([name, type], i) => {
    let action: Hl7FieldAction | undefined = BY_TYPE[type];
    if (action === 'date' && /birth/i.test(name)) action = 'birth';
    if (type === 'ST') {
      if (/place|location/i.test(name)) action = 'redact';
      else if (HL7_PERSON_SEGMENTS.has(segment) || (/\b(?:number|id)$/i.test(name) && !/sub-id$/i.test(name))) action = 'id';
    }
    if (action) out[i + 1] = action;
  });
  return { ...out, ...HL7_FIELDS[segment] };
}

const actionsCache = new Map<string, Readonly<Record<number, Hl7FieldAction>>>();

/** The action on each field of a segment (none for segments neither table knows: their text is scrubbed of known values). */
export function hl7FieldActions(segment: string): Readonly<Record<number, Hl7FieldAction>> {
  let a = actionsCache.get(segment);
  if (!a) actionsCache.set(segment, (a = derived(segment)));
  return a;
}

/**
 * The fields de-identified, by segment (HL7 v2.5.1 numbering; later versions add fields at the end), over what
 * their data types give (see hl7FieldActions); and the fields of segments the field table does not know (IN3).
 */
// a table, one segment a row: kept as written
// prettier-ignore
export const HL7_FIELDS: Readonly<Record<string, Readonly<Record<number, Hl7FieldAction>>>> = {
  MSH: { 7: 'date' },
  EVN: { 2: 'date', 3: 'date', 5: 'person', 6: 'date' },
  PID: { 2: 'id', 3: 'id', 4: 'id', 5: 'name', 6: 'name', 7: 'birth', 9: 'name', 11: 'address', 12: 'redact', 13: 'phone', 14: 'phone', 18: 'id',
         19: 'id', 20: 'id', 21: 'id', 23: 'redact', 29: 'date', 33: 'date', 40: 'phone' },
  PD1: { 3: 'redact', 4: 'person' },
  NK1: { 2: 'name', 4: 'address', 5: 'phone', 6: 'phone', 8: 'date', 9: 'date', 12: 'id', 13: 'redact', 16: 'birth', 30: 'name', 31: 'phone',
         32: 'address', 33: 'id', 37: 'id', 40: 'phone', 41: 'phone' },
  PV1: { 3: 'location', 5: 'id', 6: 'location', 7: 'person', 8: 'person', 9: 'person', 11: 'location', 17: 'person', 19: 'id', 42: 'location',
         43: 'location', 44: 'date', 45: 'date', 50: 'id', 52: 'person' },
  PV2: { 8: 'date', 9: 'date', 26: 'date', 33: 'date' },
  GT1: { 2: 'id', 3: 'name', 4: 'name', 5: 'address', 6: 'phone', 7: 'phone', 8: 'birth', 12: 'id', 13: 'date', 14: 'date', 16: 'redact',
         17: 'address', 18: 'phone', 19: 'id', 21: 'redact', 45: 'name', 46: 'phone', 47: 'redact', 48: 'id' },
  IN1: { 3: 'id', 6: 'name', 7: 'phone', 8: 'id', 10: 'id', 11: 'redact', 12: 'date', 13: 'date', 16: 'name', 18: 'birth', 19: 'address', 26: 'date',
         29: 'date', 36: 'id', 44: 'address', 49: 'id' },
  IN2: { 1: 'id', 2: 'id', 6: 'id', 8: 'id', 25: 'id', 26: 'id', 49: 'name', 50: 'phone', 52: 'name', 63: 'phone', 64: 'phone' },
  ORC: { 2: 'id', 3: 'id', 4: 'id', 9: 'date', 10: 'person', 11: 'person', 12: 'person', 15: 'date', 19: 'person', 22: 'address', 23: 'phone', 24: 'address' },
  OBR: { 2: 'id', 3: 'id', 6: 'date', 7: 'date', 8: 'date', 14: 'date', 16: 'person', 17: 'phone', 22: 'date', 28: 'person', 32: 'person',
         33: 'person', 34: 'person', 35: 'person', 36: 'date' },
  OBX: { 14: 'date', 16: 'person', 19: 'date', 24: 'address', 25: 'person' },
  NTE: { 3: 'text', 5: 'person' },
  TXA: { 4: 'date', 5: 'person', 6: 'date', 7: 'date', 8: 'date', 9: 'person', 10: 'person', 11: 'person', 12: 'id', 14: 'id', 16: 'id', 22: 'person',
         23: 'id' },
  SCH: { 1: 'id', 2: 'id', 12: 'person', 13: 'phone', 14: 'address', 16: 'person', 17: 'phone', 18: 'address', 20: 'person', 21: 'phone', 23: 'address' },
  AIP: { 3: 'person', 6: 'date' },
  AIL: { 6: 'date' },
  AIS: { 4: 'date' },
  RXA: { 3: 'date', 4: 'date', 10: 'person', 15: 'id' },
  ROL: { 4: 'person', 11: 'address', 12: 'phone' },
  PRT: { 5: 'person', 14: 'address', 15: 'phone' },
  PR1: { 8: 'person', 11: 'person', 12: 'person' },
  DG1: { 16: 'person' },
  AL1: { 6: 'date' },
  MRG: { 1: 'id', 2: 'id', 3: 'id', 4: 'id', 5: 'id', 6: 'id', 7: 'name' },
  // the accident: its location and address go, its description is clinical text, scrubbed
  ACC: { 3: 'redact', 8: 'text', 11: 'address' },
  // certification (v2.5.1 IN3): numbers, the people who certified, reviewed or were contacted, their phones, dates
  IN3: { 2: 'id', 3: 'person', 4: 'redact', 5: 'person', 6: 'date', 7: 'date', 8: 'person', 9: 'date', 10: 'date', 11: 'person', 12: 'name',
         13: 'phone', 15: 'date', 16: 'date', 17: 'redact', 18: 'date', 19: 'person', 21: 'date', 22: 'redact', 23: 'organization', 24: 'phone',
         25: 'date', 26: 'person', 27: 'redact', 28: 'organization' },
};

/** Free-text OBX value types: their OBX-5 is scrubbed; encapsulated data (ED) cannot be and is removed. */
const TEXT_TYPES = new Set(['ST', 'TX', 'FT']);

export interface Hl7DeidOptions {
  key: Uint8Array;
  maxShiftDays?: number;
  birthDate?: Partial<BirthDatePolicy>;
  /** When ages count for patients who are alive (default: now) */
  now?: Date;
}

/**
 * The patient's identity for the date shift: the PID-3 identifier typed MR (CX-5), else the first PID-3 (then
 * PID-2) identifier — the value a FHIR Patient converted from this message has as its MRN, so both shift alike.
 */
export function hl7PatientIdentity(message: Hl7v2Message): string {
  const pid = message.segments.find((s) => s.id === 'PID');
  if (!pid) return '';
  const d = message.delimiters;
  // PID-2 before PID-3, as the HL7 → FHIR conversion lists them, so both sides pick the same MRN
  const reps = [...(pid.fields[2] ?? '').split(d.repetition), ...(pid.fields[3] ?? '').split(d.repetition)].map((r) => r.split(d.component));
  const mr = reps.find((c) => decode(c[4] ?? '', d).trim() === 'MR' && decode(c[0] ?? '', d).trim());
  const first = reps.find((c) => decode(c[0] ?? '', d).trim());
  return decode((mr ?? first)?.[0] ?? '', d).trim();
}

/** De-identifies one parsed HL7 v2 message (a copy), keeping it a message that serializes and parses. */
export function deidentifyHl7v2(message: Hl7v2Message, options: Hl7DeidOptions): Hl7v2Message {
  const key = checkKey(options.key);
  const out = structuredClone(message);
  const d = out.delimiters;
  const days = shiftDays(key, hl7PatientIdentity(out), options.maxShiftDays ?? 365);
  const known = collectKnown(out);
  const scrubber = new Scrubber(known, { shiftIso: (iso) => shiftFhirDate(iso, days) });
  const policy: BirthDatePolicy = { keepYear: options.birthDate?.keepYear ?? true, over89: options.birthDate?.over89 ?? 'boundary' };
  const pid = out.segments.find((s) => s.id === 'PID');
  const death = pid ? hl7Date(decode((pid.fields[29] ?? '').split(d.component)[0] ?? '', d)) : undefined;
  const birthAt = death ?? options.now ?? new Date();
  const ctx: FieldCtx = { key, d, days, scrubber, policy, birthAt };

  for (const seg of out.segments) {
    const fields = hl7FieldActions(seg.id);
    for (const [n, action] of Object.entries(fields)) field(seg, Number(n), action, ctx);
    if (seg.id === 'OBX') obxValue(seg, ctx);
    // every other field: the names and identifiers known from the message replaced wherever they appear
    for (let n = seg.id === 'MSH' ? 3 : 1; n < seg.fields.length; n++) {
      if (fields[n] || (seg.id === 'OBX' && n === 5) || !seg.fields[n]) continue;
      seg.fields[n] = netScrub(seg.fields[n]!, ctx);
    }
  }
  out.sent_at = out.segments[0]?.fields[7]?.split(d.component)[0] ?? out.sent_at;
  return out;
}

interface FieldCtx {
  key: Uint8Array;
  d: Hl7v2Delimiters;
  days: number;
  scrubber: Scrubber;
  policy: BirthDatePolicy;
  birthAt: Date;
}

function hl7Date(v: string): Date | undefined {
  const m = /^(\d{4})(\d{2})?(\d{2})?/.exec(v);
  return m ? new Date(Date.UTC(Number(m[1]), Number(m[2] ?? 1) - 1, Number(m[3] ?? 1))) : undefined;
}

function field(seg: Hl7v2Segment, n: number, action: Hl7FieldAction, c: FieldCtx): void {
  const raw = seg.fields[n];
  if (raw === undefined || raw === '' || (seg.id === 'MSH' && n <= 2)) return;
  const { d } = c;
  const reps = raw.split(d.repetition).map((rep) => {
    if (rep === '' || rep === '""') return rep;
    const comps = rep.split(d.component);
    const first = decode(comps[0]!.split(d.subcomponent)[0]!, d);
    switch (action) {
      case 'name':
      case 'phone':
      case 'redact':
        return '';
      case 'id':
        if (!first.trim()) return rep;
        comps[0] = encode(pseudonym(c.key, first), d);
        // CX-7/8: effective and expiration dates
        for (const i of [6, 7]) if (comps[i]) comps[i] = shiftHl7Date(comps[i]!, c.days);
        return trimEnd(comps, d);
      case 'person':
        return first.trim() ? encode(pseudonym(c.key, first), d) : '';
      case 'organization': {
        comps[0] = '';
        for (const i of [2, 9]) {
          const id = decode((comps[i] ?? '').split(d.subcomponent)[0]!, d);
          if (id.trim()) comps[i] = encode(pseudonym(c.key, id), d);
        }
        return trimEnd(comps, d);
      }
      case 'address': {
        const state = decode(comps[3] ?? '', d).trim();
        const country = decode(comps[5] ?? '', d).trim();
        const kept = [
          '',
          '',
          '',
          isState(state) ? comps[3]! : '',
          encode(zip3(decode(comps[4] ?? '', d)) ?? '', d),
          /^[A-Za-z]{2,3}$/.test(country) ? comps[5]! : '',
          /^[A-Za-z]{1,3}$/.test(decode(comps[6] ?? '', d)) ? comps[6]! : '',
        ];
        return trimEnd(kept, d);
      }
      case 'location':
        return comps[0] ?? '';
      case 'date':
        comps[0] = shiftHl7Date(comps[0]!, c.days);
        return trimEnd(comps, d);
      case 'birth': {
        const birth = /^(\d{4})(\d{2})?(\d{2})?/.exec(first);
        if (!birth) return '';
        const outcome = birthDateOutcome({ y: Number(birth[1]), m: Number(birth[2] ?? 1), d: Number(birth[3] ?? 1) }, c.birthAt, c.policy);
        if (!outcome) return '';
        return 'year' in outcome ? String(outcome.year).padStart(4, '0') : shiftHl7Date(first, c.days);
      }
      case 'text':
        return encode(c.scrubber.scrub(decode(rep, d)), d);
    }
  });
  const joined = reps.every((r) => r === '') ? '' : reps.join(d.repetition);
  // what an action keeps (an assigning facility, a type code, the components of a value in the wrong field) is
  // scrubbed of the names and identifiers the message holds, as every other field is
  seg.fields[n] = KEEPS_COMPONENTS.has(action) ? scrubKept(joined, action, c) : joined;
}

const KEEPS_COMPONENTS = new Set<Hl7FieldAction>(['id', 'date', 'location', 'organization']);
/** The components each action writes itself (0-based), left as it wrote them */
const WRITTEN: Partial<Record<Hl7FieldAction, ReadonlySet<number>>> = { id: new Set([0, 6, 7]), date: new Set([0]), organization: new Set([2, 9]) };

function scrubKept(raw: string, action: Hl7FieldAction, c: FieldCtx): string {
  const { d } = c;
  const written = WRITTEN[action];
  return raw
    .split(d.repetition)
    .map((rep) =>
      rep
        .split(d.component)
        .map((comp, i) =>
          written?.has(i) || !comp
            ? comp
            : comp
                .split(d.subcomponent)
                .map((sub) => {
                  if (!sub) return sub;
                  const text = decode(sub, d);
                  const scrubbed = c.scrubber.scrubKnown(text);
                  return scrubbed === text ? sub : encode(scrubbed, d);
                })
                .join(d.subcomponent),
        )
        .join(d.component),
    )
    .join(d.repetition);
}

/** A date or date-time in a field the table does not name (a timestamp is an element of a date all the same). */
const DTM = /^(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])(?:\d{2,6}(?:\.\d+)?)?(?:[+-]\d{4})?$/;

// prettier-ignore
const STATES = new Set(['alabama', 'alaska', 'arizona', 'arkansas', 'california', 'colorado', 'connecticut', 'delaware', 'florida', 'georgia',
                        'hawaii', 'idaho', 'illinois', 'indiana', 'iowa', 'kansas', 'kentucky', 'louisiana', 'maine', 'maryland', 'massachusetts',
                        'michigan', 'minnesota', 'mississippi', 'missouri', 'montana', 'nebraska', 'nevada', 'new hampshire', 'new jersey',
                        'new mexico', 'new york', 'north carolina', 'north dakota', 'ohio', 'oklahoma', 'oregon', 'pennsylvania', 'rhode island',
                        'south carolina', 'south dakota', 'tennessee', 'texas', 'utah', 'vermont', 'virginia', 'washington', 'west virginia',
                        'wisconsin', 'wyoming', 'district of columbia', 'puerto rico']);

/** A state as XAD-4 should hold it (a code, or a US state's name); a city misplaced there is not kept. */
function isState(v: string): boolean {
  return /^[A-Za-z]{2}$/.test(v) || STATES.has(v.toLowerCase());
}

/** Each sub-component decoded, scrubbed of known values, encoded again (delimiters untouched). */
function netScrub(raw: string, c: FieldCtx): string {
  const { d } = c;
  return raw
    .split(d.repetition)
    .map((rep) =>
      rep
        .split(d.component)
        .map((comp) =>
          comp
            .split(d.subcomponent)
            .map((sub) => {
              if (!sub) return sub;
              const text = decode(sub, d);
              if (DTM.test(text)) return shiftHl7Date(text, c.days);
              const scrubbed = c.scrubber.scrubKnown(text);
              return scrubbed === text ? sub : encode(scrubbed, d);
            })
            .join(d.subcomponent),
        )
        .join(d.component),
    )
    .join(d.repetition);
}

function trimEnd(comps: string[], d: Hl7v2Delimiters): string {
  let n = comps.length;
  while (n > 0 && comps[n - 1] === '') n--;
  return comps.slice(0, n).join(d.component);
}

function obxValue(seg: Hl7v2Segment, c: FieldCtx): void {
  const type = decode(seg.fields[2] ?? '', c.d)
    .trim()
    .toUpperCase();
  if (!seg.fields[5]) return;
  if (TEXT_TYPES.has(type)) field(seg, 5, 'text', c);
  else if (type === 'ED' || type === 'RP') seg.fields[5] = '';
}

/** Names, identifier values, phones, emails and street lines and cities the message carries, to scrub its text. */
function collectKnown(m: Hl7v2Message): KnownIdentifiers {
  const known = new KnownIdentifiers();
  const d = m.delimiters;
  for (const seg of m.segments) {
    const fields = hl7FieldActions(seg.id);
    for (const [n, action] of Object.entries(fields)) {
      for (const rep of (seg.fields[Number(n)] ?? '').split(d.repetition)) {
        const comps = rep.split(d.component).map((x) => x.split(d.subcomponent).map((s) => decode(s, d)));
        if (action === 'name') {
          known.add('NAME', comps[0]?.[0]);
          known.add('NAME', comps[1]?.[0]);
          known.add('NAME', comps[2]?.[0]);
        } else if (action === 'person') {
          known.add('ID', comps[0]?.[0]);
          known.add('NAME', comps[1]?.[0]);
          known.add('NAME', comps[2]?.[0]);
          known.add('NAME', comps[3]?.[0]);
        } else if (action === 'redact') {
          // a county, a birth place, an employer: each part, as a whole
          for (const comp of comps) known.add('NAME', comp.join(' ').trim(), false);
        } else if (action === 'id') known.add('ID', comps[0]?.[0]);
        else if (action === 'organization') {
          known.add('NAME', comps[0]?.[0], false);
          known.add('ID', comps[2]?.[0]);
          known.add('ID', comps[9]?.[0]);
        } else if (action === 'phone') {
          known.add('PHONE', comps[0]?.[0]);
          known.add('EMAIL', comps[3]?.[0]);
          const local = [comps[5]?.[0], comps[6]?.[0]].filter(Boolean).join('');
          if (local.length >= 7) known.add('PHONE', local);
          known.add('PHONE', comps[6]?.[0]);
          known.add('PHONE', comps[11]?.[0]);
        } else if (action === 'address') {
          known.add('ADDRESS', comps[0]?.[0]);
          known.add('ADDRESS', comps[0]?.join(' '));
          known.add('ADDRESS', comps[1]?.[0]);
          known.add('ADDRESS', comps[2]?.[0]);
        }
      }
    }
  }
  return known;
}
