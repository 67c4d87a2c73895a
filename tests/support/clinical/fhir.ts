/**
 * Test-only helpers (imported by *.test.ts files and benches, never by the library): the FHIR samples of
 * ../shared/data, read as they are — the Synthea bulk export (NDJSON), the Bundles of hl7v2/expected-fhir, and the
 * sample HL7 v2 messages converted by our hl7v2-to-fhir.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { parseMessage } from '@/clinical/hl7v2';
import { convertMessage } from '@/clinical/hl7v2-fhir';

// a bundled bench runs from elsewhere: it says where the checkout is
const DATA = process.env.BENCH_ROOT ? path.resolve(process.env.BENCH_ROOT, '../shared/data') : path.resolve(import.meta.dirname, '../../../../shared/data');
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

/**
 * Every sample HL7 v2 message (hl7v2/messages) our converter takes, converted as the hl7v2-to-fhir node does, as
 * `bundleType` Bundles (the MLLP feed's are transactions), by file name.
 */
export function convertedSamples(bundleType: 'transaction' | 'collection' = 'transaction'): [string, Bundle][] {
  const dir = path.join(DATA, 'hl7v2/messages');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.hl7'))
    .sort()
    .flatMap((f): [string, Bundle][] => {
      try {
        return [[f, convertMessage(parseMessage(readFileSync(path.join(dir, f), 'utf8')), { bundleType }).bundle as unknown as Bundle]];
      } catch {
        return []; // a message type the converter does not take
      }
    });
}
