import type { Coding, Extension } from '@medplum/fhirtypes';
import { codeableConcept } from './datatypes';
import type { Field, Seg } from './reader';

const CDC_RACE = 'urn:oid:2.16.840.1.113883.6.238';

/** The OMB race categories of the US Core race extension (CDC race and ethnicity codes, HL7 table 0005). */
const OMB_RACE: Record<string, string> = {
  '1002-5': 'American Indian or Alaska Native',
  '2028-9': 'Asian',
  '2054-5': 'Black or African American',
  '2076-8': 'Native Hawaiian or Other Pacific Islander',
  '2106-3': 'White',
};

/** PID-22 ethnic group (HL7 table 0189: H, N, or the CDC codes themselves) → the OMB ethnicity categories. */
const OMB_ETHNICITY: Record<string, { code: string; display: string }> = {
  H: { code: '2135-2', display: 'Hispanic or Latino' },
  N: { code: '2186-5', display: 'Non Hispanic or Latino' },
  '2135-2': { code: '2135-2', display: 'Hispanic or Latino' },
  '2186-5': { code: '2186-5', display: 'Non Hispanic or Latino' },
};

/**
 * A US Core race or ethnicity extension from the repetitions of a CWE field: OMB categories as `ombCategory`, other
 * CDC codes (`2131-1` other race, the detailed races and ethnicities) as `detailed`, and the required `text` from
 * the displays given. Undefined when no repetition says anything.
 */
function usCore(url: string, reps: Field[], omb: (code: string) => { code: string; display: string } | undefined): Extension | undefined {
  const parts: Extension[] = [];
  const words: string[] = [];
  for (const f of reps) {
    const code = f.c(1).trim();
    const category = omb(code);
    const display = category?.display ?? f.c(2).trim();
    if (display || code) words.push(display || code);
    if (category) parts.push({ url: 'ombCategory', valueCoding: { ...category, system: CDC_RACE } });
    else if (/^\d{4}-\d$/.test(code)) parts.push({ url: 'detailed', valueCoding: { code, ...(display ? { display } : {}), system: CDC_RACE } as Coding });
  }
  if (!words.length) return undefined;
  return { url, extension: [...parts, { url: 'text', valueString: words.join(', ') }] };
}

/** A coded field as a `code` sub-extension (citizenship, nationality). */
function codeExtension(url: string, f: Field | undefined): Extension | undefined {
  const code = codeableConcept(f);
  return code ? { url, extension: [{ url: 'code', valueCodeableConcept: code }] } : undefined;
}

/**
 * What PID says of the patient in the extensions the FHIR-Converter templates use: race (PID-10) and ethnicity
 * (PID-22, US Core), mother's maiden name (PID-6, the surname), birth place (PID-23), religion (PID-17),
 * citizenship (PID-26) and nationality (PID-28).
 */
export function patientExtensions(pid: Seg): Extension[] {
  const maiden = pid.f(6).s(1, 1).trim();
  const birthPlace = pid.f(23).text().trim();
  const religion = codeableConcept(pid.f(17));
  return [
    usCore('http://hl7.org/fhir/us/core/StructureDefinition/us-core-race', pid.reps(10), (c) => (OMB_RACE[c] ? { code: c, display: OMB_RACE[c]! } : undefined)),
    usCore('http://hl7.org/fhir/us/core/StructureDefinition/us-core-ethnicity', pid.reps(22), (c) => OMB_ETHNICITY[c.toUpperCase()]),
    maiden ? { url: 'http://hl7.org/fhir/StructureDefinition/patient-mothersMaidenName', valueString: maiden } : undefined,
    birthPlace ? { url: 'http://hl7.org/fhir/StructureDefinition/patient-birthPlace', valueAddress: { text: birthPlace } } : undefined,
    religion ? { url: 'http://hl7.org/fhir/StructureDefinition/patient-religion', valueCodeableConcept: religion } : undefined,
    ...pid.reps(26).map((f) => codeExtension('http://hl7.org/fhir/StructureDefinition/patient-citizenship', f)),
    codeExtension('http://hl7.org/fhir/StructureDefinition/patient-nationality', pid.f(28)),
  ].filter((x): x is Extension => !!x);
}
