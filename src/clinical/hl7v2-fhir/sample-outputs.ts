/**
 * Every shared HL7 v2 sample converted under each option set the product uses (server/scripts/tests only: reads
 * files), as the JSON text of the result (bundle and skipped segments): what the byte-for-byte check of
 * sample-outputs.test.ts hashes, so a change made for speed cannot change a bundle unnoticed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseMessage } from '@/clinical/hl7v2/parse';
import { readMessage } from '@/clinical/hl7v2/value';
import type { ConvertOptions } from './context';
import { convertMessage } from './convert';

export const OPTION_SETS: Record<string, ConvertOptions> = {
  transaction: {},
  batch: { bundleType: 'batch' },
  collection: { bundleType: 'collection' },
  'collection, no header or provenance, -05:00': { bundleType: 'collection', messageHeader: false, provenance: false, timezone: '-05:00' },
};

/** `name (option set)` → the JSON of the conversion, for each sample message of `dir/messages`. */
export function sampleOutputs(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of readdirSync(path.join(dir, 'messages'))
    .filter((f) => f.endsWith('.hl7'))
    .sort()) {
    // as the hl7v2-to-fhir node reads it: parsed, then checked again as a value from the flow
    const message = readMessage(JSON.parse(JSON.stringify(parseMessage(readFileSync(path.join(dir, 'messages', file), 'utf8')))));
    for (const [set, options] of Object.entries(OPTION_SETS)) {
      let text: string;
      try {
        text = JSON.stringify(convertMessage(message, options));
      } catch (e) {
        text = `error: ${(e as Error).message}`;
      }
      out.set(`${file} (${set})`, text);
    }
  }
  return out;
}
