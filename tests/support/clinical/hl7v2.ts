/**
 * Test-only helpers (imported by *.test.ts files, never by the library): the HL7 v2 samples of
 * ../shared/data/hl7v2/messages, read as they are.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const HL7_SAMPLES_DIR = path.resolve(import.meta.dirname, '../../../../shared/data/hl7v2/messages');

export interface Hl7Sample {
  /** `ADT-A01-01.hl7` */
  name: string;
  /** The file as it is (byte-order mark and LF line ends included) */
  text: string;
}

/** Every sample message, sorted by name. */
export function hl7Samples(): Hl7Sample[] {
  return readdirSync(HL7_SAMPLES_DIR)
    .filter((f) => f.endsWith('.hl7'))
    .sort()
    .map((name) => ({ name, text: readFileSync(path.join(HL7_SAMPLES_DIR, name), 'utf8') }));
}

export function hl7Sample(name: string): string {
  return readFileSync(path.join(HL7_SAMPLES_DIR, name), 'utf8');
}

/**
 * The message as HL7 writes it: byte-order mark removed, every segment ended by CR (LF and CRLF line ends
 * become CR, and the last segment gets its CR when the file ends without one).
 */
export function normalized(text: string): string {
  const body = text.replace(/^\uFEFF/, '').replace(/\r\n|\n/g, '\r');
  return body.endsWith('\r') ? body : `${body}\r`;
}
