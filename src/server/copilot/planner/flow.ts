import type { PortType } from '@/shared/ports';

/**
 * What flows along the pipeline at one point, as the planner follows it: the port type, and what the
 * value is (HL7 v2 text, X12, CSV, a FHIR Bundle…), which the port type alone does not say (`text` may be
 * an HL7 message or a clinical note; `json` rows or a resource).
 */
export interface Flow {
  type: PortType;
  kind: Kind;
  /** An array of items (CSV rows, resources taken out of a Bundle). */
  list?: boolean;
  /** A FHIR Bundle's type, when known: transaction, collection, searchset… */
  bundle?: string;
  /** The X12 transaction set, when the request says it: 837 or 835. */
  x12?: string;
}

export type Kind = 'hl7' | 'x12' | 'csv' | 'note' | 'fhir' | 'json' | 'event' | 'answer';

export const flowText = (f: Flow): string => {
  const what: Record<Kind, string> = {
    hl7: 'HL7 v2',
    x12: `X12${f.x12 ? ` ${f.x12}` : ''}`,
    csv: 'CSV',
    note: 'clinical text',
    fhir: f.bundle ? `FHIR (${f.bundle} Bundle)` : 'FHIR',
    json: 'JSON',
    event: 'the trigger event',
    answer: 'a model answer',
  };
  return `${what[f.kind]}${f.list ? ' items' : ''} (${f.type})`;
};
