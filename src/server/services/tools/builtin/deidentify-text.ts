import { KnownIdentifiers, Scrubber } from '@/clinical/deid';
import type { BuiltinTool } from '../tool-types';

/** Free text with what looks like an identifier replaced (Safe Harbor patterns: names given, phones, emails, SSNs, MRNs, dates…). */
export const deidentifyText: BuiltinTool = {
  id: 'deidentify_text',
  name: 'De-identify text',
  description:
    'Remove identifiers from free text before quoting or sending it on: phones, emails, SSNs, record numbers, URLs, dates, ages over 89, and any names given.',
  input_schema: {
    type: 'object',
    properties: {
      text: { type: 'string', description: 'The text to de-identify' },
      names: { type: 'array', items: { type: 'string' }, description: 'Names of people known to appear in it (patient, relatives, clinicians)' },
    },
    required: ['text'],
    additionalProperties: false,
  },
  config_schema: { type: 'object', properties: {} },
  async run(_t, input) {
    const known = new KnownIdentifiers();
    for (const name of Array.isArray(input.names) ? input.names : []) known.add('NAME', name);
    return { text: new Scrubber(known).scrub(String(input.text ?? '')) };
  },
};
