import type { Flow, Kind } from '@/engine/node-plan';

/** What flows along the pipeline as the planner follows it: the descriptors' plans read and give it. */
export type { Flow, Kind };

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
