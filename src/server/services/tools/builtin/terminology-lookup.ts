import { canonicalSystem, lookupDisplay } from '@/clinical/fhir/terminology';
import type { BuiltinTool } from '../tool-types';

/** A code's display from the terminologies Clinflow carries offline (HL7 v2 tables, FHIR code systems, sample codes). */
export const terminologyLookup: BuiltinTool = {
  id: 'terminology_lookup',
  name: 'Terminology lookup',
  description: [
    'Look up the display name of a code: HL7 v2 tables, FHIR and HL7 v3 code systems, and the LOINC,',
    'SNOMED CT, RxNorm, CVX and ICD-10 codes Clinflow carries offline. Say "unknown" rather than guess.',
  ].join(' '),
  input_schema: {
    type: 'object',
    properties: {
      system: { type: 'string', description: 'Code system URI, OID or short name (http://loinc.org, LN, SCT, HL70001…)' },
      code: { type: 'string', description: 'The code' },
    },
    required: ['system', 'code'],
    additionalProperties: false,
  },
  config_schema: { type: 'object', properties: {} },
  async run(_t, input) {
    const system = canonicalSystem(String(input.system ?? '').trim());
    const code = String(input.code ?? '').trim();
    const found = lookupDisplay(system, code);
    return found
      ? { system, code, display: found.display, found: true, source: found.source }
      : { system, code, found: false, message: 'Unknown to the offline terminologies: do not guess its meaning.' };
  },
};
