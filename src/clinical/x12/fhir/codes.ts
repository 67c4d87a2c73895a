import type { CodeableConcept, Coding, Money, Period } from '@medplum/fhirtypes';

/** Code systems and identifier systems the X12 → FHIR mappings use. */
export const SYSTEM = {
  npi: 'http://hl7.org/fhir/sid/us-npi',
  tin: 'urn:oid:2.16.840.1.113883.4.4',
  icd10cm: 'http://hl7.org/fhir/sid/icd-10-cm',
  icd9cm: 'http://hl7.org/fhir/sid/icd-9-cm',
  icd10pcs: 'http://www.cms.gov/Medicare/Coding/ICD10',
  cpt: 'http://www.ama-assn.org/go/cpt',
  hcpcs: 'http://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets',
  ndc: 'http://hl7.org/fhir/sid/ndc',
  cdt: 'http://ada.org/cdt',
  revenue: 'https://www.nubc.org/CodeSystem/RevenueCodes',
  placeOfService: 'https://www.cms.gov/Medicare/Coding/place-of-service-codes/Place_of_Service_Code_Set',
  taxonomy: 'http://nucc.org/provider-taxonomy',
  claimType: 'http://terminology.hl7.org/CodeSystem/claim-type',
  priority: 'http://terminology.hl7.org/CodeSystem/processpriority',
  diagnosisType: 'http://terminology.hl7.org/CodeSystem/ex-diagnosistype',
  onAdmission: 'http://terminology.hl7.org/CodeSystem/ex-diagnosis-on-admission',
  careTeamRole: 'http://terminology.hl7.org/CodeSystem/claimcareteamrole',
  relationship: 'http://terminology.hl7.org/CodeSystem/subscriber-relationship',
  coverageClass: 'http://terminology.hl7.org/CodeSystem/coverage-class',
  adjudication: 'http://terminology.hl7.org/CodeSystem/adjudication',
  identifierType: 'http://terminology.hl7.org/CodeSystem/v2-0203',
  actCode: 'http://terminology.hl7.org/CodeSystem/v3-ActCode',
  carc: 'https://x12.org/codes/claim-adjustment-reason-codes',
  groupCode: 'https://x12.org/codes/claim-adjustment-group-codes',
  rarc: 'https://x12.org/codes/remittance-advice-remark-codes',
} as const;

export function concept(system: string, code: string, display?: string): CodeableConcept {
  return { coding: [coding(system, code, display)] };
}

export function coding(system: string, code: string, display?: string): Coding {
  return { system, code, ...(display ? { display } : {}) };
}

/** An X12 amount (`100.00`, `-1.27`) as US dollars; undefined when empty or not a number. */
export function money(value: string): Money | undefined {
  if (!/^-?\d*\.?\d+$/.test(value.trim())) return undefined;
  return { value: Number(value), currency: 'USD' };
}

/** Whole cents of an amount, so sums are exact. */
export function cents(value: string): number {
  return Math.round(Number(value) * 100);
}

/** `CCYYMMDD` → `CCYY-MM-DD`, undefined when it is not a real calendar date. */
export function x12Date(value: string): string | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})/.exec(value);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return undefined;
  return `${m[1]}-${m[2]}-${m[3]}`;
}

/** A DTP/DTM date by its format qualifier: D8 (a date), RD8 (`CCYYMMDD-CCYYMMDD`), DT (date and time). */
export function x12Period(format: string, value: string): { date?: string; period?: Period } {
  if (format === 'RD8') {
    const [a = '', b = ''] = value.split('-');
    const start = x12Date(a);
    const end = x12Date(b);
    if (start && end && start === end) return { date: start };
    return start || end ? { period: { ...(start ? { start } : {}), ...(end ? { end } : {}) } } : {};
  }
  const date = x12Date(value);
  return date ? { date } : {};
}

/** ICD-9-CM and ICD-10-CM diagnosis codes travel without the decimal point in X12; FHIR writes it. */
export function diagnosisCode(code: string, icd10: boolean): string {
  if (code.includes('.') || code.length <= 3) return code;
  const at = !icd10 && code.startsWith('E') ? 4 : 3;
  return code.length > at ? `${code.slice(0, at)}.${code.slice(at)}` : code;
}

/** ICD-9-CM procedure codes: 2 digits, then the decimal point. ICD-10-PCS has none. */
export function icd9Procedure(code: string): string {
  return code.includes('.') || code.length <= 2 ? code : `${code.slice(0, 2)}.${code.slice(2)}`;
}

/**
 * A procedure code by its X12 qualifier (SV101-1, SV202-1, SVC01-1): HC is HCPCS, whose level I is CPT (five
 * digits, or four digits and F/T/U), level II a letter and four digits; N4 is an NDC; AD is CDT; NU a revenue
 * code. Others keep the code with no system.
 */
export function procedureCoding(qualifier: string, code: string): Coding {
  if (qualifier === 'HC' || qualifier === 'HP') {
    if (/^\d{4}[0-9FTU]$/.test(code)) return coding(SYSTEM.cpt, code);
    return coding(SYSTEM.hcpcs, code);
  }
  if (qualifier === 'N4') return coding(SYSTEM.ndc, code);
  if (qualifier === 'AD') return coding(SYSTEM.cdt, code);
  if (qualifier === 'NU') return coding(SYSTEM.revenue, code);
  return { code };
}

/** HCPCS/CPT modifiers (`25`, `GA`). */
export function modifierCoding(code: string): CodeableConcept {
  return concept(/^\d{2}$/.test(code) ? SYSTEM.cpt : SYSTEM.hcpcs, code);
}

export const GENDER: Record<string, 'male' | 'female' | 'unknown'> = { M: 'male', F: 'female', U: 'unknown' };
