import type { Resource } from '@medplum/fhirtypes';
import { clientForConnector } from '@/clinical/fhir/client-connector';
import { FhirError } from '@/clinical/fhir/client';
import { type BuiltinTool, ToolError } from '../tool-types';

const QUERY = /^[A-Z][A-Za-z]+(\/[A-Za-z0-9\-.]{1,64}|\?.*)?$/;
const MAX = 20;

/** `Patient?family=smith` or `Patient/123` on the assignment's FHIR connector; at most 20 resources back. */
export const fhirSearch: BuiltinTool = {
  id: 'fhir_search',
  name: 'FHIR search',
  description: [
    'Search or read resources on a FHIR R4 server, e.g. "Patient?family=smith&birthdate=ge1980-01-01",',
    '"Observation?patient=123&code=http://loinc.org|718-7" or "Patient/123". Returns up to 20 resources.',
  ].join(' '),
  input_schema: {
    type: 'object',
    properties: { query: { type: 'string', description: 'A FHIR search (Type?param=value&…) or read (Type/id)' } },
    required: ['query'],
    additionalProperties: false,
  },
  config_schema: {
    type: 'object',
    properties: { connector: { type: 'string', description: 'Name or id of the fhir connector to search' } },
    required: ['connector'],
  },
  async run({ services, signal }, input, config) {
    const query = String(input.query ?? '')
      .trim()
      .replace(/^\/+/, '');
    if (!QUERY.test(query)) throw new ToolError('FHIR_QUERY_INVALID', `"${query}" is not a FHIR search or read: write Type?param=value or Type/id.`);
    const ref = typeof config.connector === 'string' ? config.connector.trim() : '';
    if (!ref)
      throw new ToolError(
        'CONNECTOR_REQUIRED',
        'This agent\'s fhir_search tool has no connector: assign the tool again with {"config": {"connector": "<fhir connector>"}}.',
      );
    const connector = await services.connector(ref, 'fhir');
    try {
      const client = clientForConnector(connector, services.fetch, 20_000);
      const read = /^([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})$/.exec(query);
      if (read) return { resources: [await client.read(read[1]!, read[2]!, { signal })] };
      const bundle = await client.search(query, { maxResources: MAX, maxPages: 2, signal });
      const resources = (bundle.entry ?? []).map((e) => e.resource).filter((r): r is Resource => Boolean(r));
      return { total: bundle.total ?? resources.length, resources };
    } catch (e) {
      if (e instanceof FhirError) throw new ToolError(e.code, e.message);
      throw e;
    }
  },
};
