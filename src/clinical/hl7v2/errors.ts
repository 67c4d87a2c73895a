import type { Hl7v2Issue } from './types';

/** Text that cannot be read as HL7 v2 (`HL7_INVALID`); `issues` lists every reason found, with its line. */
export class Hl7v2Error extends Error {
  readonly code = 'HL7_INVALID';
  constructor(readonly issues: Hl7v2Issue[]) {
    super(issues.map((i) => i.message).join('; '));
    this.name = 'Hl7v2Error';
  }
}

/** A short, quoted excerpt of some text for an error message. */
export function excerpt(text: string, max = 24): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}
