/**
 * De-identification by HIPAA Safe Harbor (45 CFR 164.514(b)(2)) of FHIR R4 resources and bundles (rules in
 * FHIRPath) and of HL7 v2 messages (by segment and field), with the same keyed pseudonyms and per-patient date
 * shifts on both sides, so a patient de-identified in either format links up. Server-side (node:crypto).
 */
export { deidentifyFhir, hashReference, type FhirDeidOptions, type FhirDeidResult } from './fhir';
export { medicalRecordNumber } from './fhir-people';
export { SAFE_HARBOR_RULES, ruleProblem, type FhirAction, type FhirRule } from './fhir-rules';
export { deidentifyHl7v2, hl7FieldActions, hl7PatientIdentity, HL7_FIELDS, HL7_PERSON_SEGMENTS, type Hl7DeidOptions, type Hl7FieldAction } from './hl7v2';
export { pseudonym, shiftDays, shiftFhirDate, shiftHl7Date, type BirthDatePolicy } from './keyed';
export { KnownIdentifiers, Scrubber } from './scrub';
export { RESTRICTED_ZIP3, zip3 } from './zip3';
