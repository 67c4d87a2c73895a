/**
 * Test-only helpers (imported by *.test.ts files, never by the library): the FHIR samples of ../shared/data,
 * read as they are — the Synthea bulk export (NDJSON) and the Bundles of hl7v2/expected-fhir.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Bundle, Resource } from '@medplum/fhirtypes';

const DATA = path.resolve(import.meta.dirname, '../../../../shared/data');
const SYNTHEA = path.join(DATA, 'synthea-10');
const EXPECTED = path.join(DATA, 'hl7v2/expected-fhir');

/** Every resource of one Synthea file (`Patient`, `Condition`…), in file order. */
export function synthea<T extends Resource = Resource>(type: string): T[] {
  return readFileSync(path.join(SYNTHEA, `${type}.000.ndjson`), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

/** The resource types of the Synthea sample, sorted. */
export function syntheaTypes(): string[] {
  return readdirSync(SYNTHEA)
    .filter((f) => f.endsWith('.ndjson'))
    .map((f) => f.replace('.000.ndjson', ''))
    .sort();
}

/** The names of the expected-fhir Bundles (`ADT-A01-01`…), sorted. */
export function expectedBundleNames(): string[] {
  return readdirSync(EXPECTED)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort();
}

export function expectedBundle(name: string): Bundle {
  return JSON.parse(readFileSync(path.join(EXPECTED, `${name}.json`), 'utf8')) as Bundle;
}
