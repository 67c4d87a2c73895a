/**
 * Test-only helpers (imported by *.test.ts files, never by the library): the X12 samples of
 * ../shared/data/x12, read as they are, and FHIR R4 validation with @medplum/core.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Resource } from '@medplum/fhirtypes';
import { type FhirIssue, validateFhir } from '@/clinical/fhir/validate';

export const X12_SAMPLES_DIR = path.resolve(import.meta.dirname, '../../../../shared/data/x12');

export interface Sample {
  /** `837_005010X222A2/demo.example1.837` */
  name: string;
  text: string;
}

/** Every sample file (all but LICENSE), sorted by name; `folder` keeps those whose folder starts with it (`837`, `835_`). */
export function x12Samples(folder = ''): Sample[] {
  const out: Sample[] = [];
  for (const dir of readdirSync(X12_SAMPLES_DIR).sort()) {
    const full = path.join(X12_SAMPLES_DIR, dir);
    if (!statSync(full).isDirectory() || !dir.startsWith(folder)) continue;
    for (const file of readdirSync(full).sort()) out.push({ name: `${dir}/${file}`, text: readFileSync(path.join(full, file), 'utf8') });
  }
  return out;
}

export function x12Sample(name: string): string {
  return readFileSync(path.join(X12_SAMPLES_DIR, name), 'utf8');
}

/**
 * FHIR R4 validation errors of a resource (structure, cardinality, types, invariants, required codes), by
 * the FHIR library's `validateFhir`. Empty when the resource is valid.
 */
export function r4Errors(resource: Resource): FhirIssue[] {
  return validateFhir(resource).filter((i) => i.severity === 'error');
}
