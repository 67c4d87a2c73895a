import { z } from 'zod';
import { describeNode } from '../node-descriptor';
import { anyOf, inRow } from '../node-plan';

/** The `connector` field every FHIR node has (empty by default: the node then says what to set). */
export const fhirConnectorField = z
  .string()
  .max(200)
  .default('')
  .describe("The id or name of a `fhir` connector (Connectors page): the server's base URL and credentials");

/** Errors every FHIR node may fail with, besides its own. */
export const FHIR_CONNECTION_ERRORS: Record<string, string> = {
  CONNECTOR_REQUIRED: '`connector` is empty: set it to the id or name of a `fhir` connector',
  CONNECTOR_NOT_FOUND: 'no connector of that id or name in the organization',
  CONNECTOR_TYPE_MISMATCH: 'the connector is not of type `fhir`',
  FHIR_CONFIG_INVALID: "the connector's base URL is not http(s), or its auth lacks a setting it needs (the message names it)",
  FHIR_ERROR: "the server answered non-2xx (the message has the status and the OperationOutcome's issue text)",
  FHIR_AUTH_FAILED: "the server or its token endpoint refused the connector's credentials (401/403, invalid_client)",
  FHIR_TIMEOUT: 'no full answer within `timeout_ms`',
  FHIR_UNREACHABLE: 'the server could not be reached (or the outbound policy refused its address)',
  FHIR_BAD_RESPONSE: "the server's answer is not what FHIR prescribes (not JSON, a link to another host…)",
};

const Config = z.object({
  connector: fhirConnectorField,
  mode: z.enum(['search', 'read']).default('search').describe('search: run a search and gather its pages; read: read one resource by type and id'),
  query: z
    .string()
    .max(2000)
    .default('Patient?_count=50')
    .describe(
      [
        'Relative to the base URL. search: `Type?param=value…` (e.g. `Patient?identifier={{mrn}}`); read:',
        '`Type/id` (e.g. `Patient/{{patient_id}}`). `{{field}}` takes a field of the input params, URL-encoded',
      ].join(' '),
    ),
  max_pages: z.number().int().min(1).max(1000).default(10).describe('search: follow `next` links up to this many pages in all'),
  max_resources: z.number().int().min(1).max(100_000).default(1000).describe('search: stop once this many entries are gathered'),
  timeout_ms: z.number().int().min(100).max(300_000).default(30_000).describe('Time limit of each request to the server'),
});

export const fhirQuery = describeNode({
  id: 'fhir-query',
  name: 'FHIR query',
  idBase: 'query',
  category: 'healthcare',
  description: 'Searches a FHIR server (following next links up to a limit) or reads one resource, through a fhir connector, and outputs a Bundle.',
  version: '1.0.0',
  keywords: ['fhir', 'r4', 'search', 'read', 'query', 'get', 'fetch', 'server', 'ehr', 'paging', 'bundle', 'connector', 'rest'],
  side_effect: 'none',
  documentation: [
    'Calls the FHIR server of the `connector` (its base URL and auth — none, basic, bearer or OAuth2 client',
    'credentials, tokens cached and refreshed — come from the connector, never from the pipeline).',
    '',
    "**search** runs `query` (`Patient?family=smith&_count=50`) and follows the server's `next` links until there",
    'are none, `max_pages` pages were read, or `max_resources` entries were gathered. `bundle` is one `searchset`',
    "Bundle with every page's entries (and `total` when the server gave it). When a limit cut the search short, a",
    'warning is logged and the bundle keeps a `next` link to where it stopped.',
    '',
    '**read** reads `Type/id` (`Patient/123`): `resource` is the resource, `bundle` a searchset holding it (so a',
    'downstream `fhir-bundle-split` treats both modes alike).',
    '',
    '`{{field}}` in `query` takes that field of the `params` input (a dotted path such as `{{patient.mrn}}` works',
    "too), URL-encoded; with no `params` connected, the execution's inputs are used. **Example**: `query`",
    '`Patient?identifier=urn:mrn|{{mrn}}` with params `{"mrn": "12345"}` searches',
    '`Patient?identifier=urn:mrn|12345`. A field that is missing fails the node (`FHIR_QUERY_INVALID`).',
    '',
    "A server error fails the node with the OperationOutcome's issue text (`FHIR_ERROR`, e.g. a read of a",
    'missing resource: `404: error not-found: Not found`). Reads change nothing: test mode runs the query too.',
  ].join('\n'),
  config: Config,
  example: { connector: 'hospital-fhir', mode: 'search', query: 'Patient?identifier=urn:mrn|{{mrn}}', max_pages: 10, max_resources: 1000, timeout_ms: 30000 },
  ui: {
    order: ['connector', 'mode', 'query', 'max_pages', 'max_resources', 'timeout_ms'],
    fields: { connector: { title: 'Connector', widget: 'connector', connectorType: 'fhir' }, query: { placeholder: 'Patient?identifier={{mrn}}' } },
  },
  plan: {
    madeFor: 'fhir',
    role: 'source',
    stage: 'source',
    input: 'params',
    output: 'bundle',
    jobs: ['read-fhir'],
    search: false,
    scheduled: { reads: 'fhir' },
    gives: () => ({ type: 'fhir-bundle', kind: 'fhir', bundle: 'searchset' }),
    cue: anyOf(
      inRow(
        /\b(pull|fetch|query|queries|search|poll|read|get|retriev|look\w* up|download|collect(?!ion)|grab)\w*[^.]{0,60}?/,
        /\b(from|on|in)\s+(the\s+|our\s+|a\s+)?[^.]{0,25}?\b(fhir|ehr|hapi)\b/,
      ),
      /\bfhir search\b|\b(search|query|poll)\w* the fhir/,
      /\bfrom (the |our )?(\w+ )?(fhir|ehr)( server| store| api| endpoint)?\b(?! (patients?|resources?|bundles?|messages?|data)\b)/,
    ),
    // the bulk export reads everything; a read phrase that runs on into the write phrase ("…and create each
    // Patient on the FHIR server") asked for the write
    dropWhen: ({ step, others }) =>
      others.some((o) => o.plan.jobs?.includes('read-fhir')) ||
      others.some((o) => o.plan.role === 'sink' && o.connector === 'fhir' && o.at > step.at && o.at < step.at + step.said.length),
    configure: (a) => {
      const type0 = a.resourceTypes.find((t) => !['Practitioner', 'Organization'].includes(t)) ?? a.resourceTypes[0] ?? 'Patient';
      const params: string[] = [];
      if (type0 === 'Observation' && /\blab/.test(a.lower)) params.push('category=laboratory');
      if (type0 === 'Observation' && /\bvital/.test(a.lower)) params.push('category=vital-signs');
      if (/\bfinal\b/.test(a.lower) && ['Observation', 'DiagnosticReport'].includes(type0)) params.push('status=final');
      if (/\bactive\b/.test(a.lower) && type0 === 'Condition') params.push('clinical-status=active');
      if (/\bby (mrn|medical record number|identifier)\b|\bwith (the |an |a )?(mrn|identifier)\b/.test(a.lower) && type0 === 'Patient') {
        params.push('identifier={{mrn}}');
        a.filled.push('the MRN from the execution inputs ({{mrn}})');
      }
      const family = a.text.match(/\bfamily (?:name )?["']?([A-Z][a-z]+)/);
      if (family && type0 === 'Patient') params.push(`family=${family[1]!.toLowerCase()}`);
      params.push(/\b(new|latest|recent|updated|changed)\b/.test(a.lower) ? '_sort=-_lastUpdated&_count=100' : '_count=100');
      a.config.query = `${type0}?${params.join('&')}`;
      a.filled.push(`query ${a.config.query}`);
    },
  },
  ports: (config) => ({
    inputs: [{ name: 'params', type: 'json', optional: true, description: 'Values for the {{field}} placeholders of the query' }],
    outputs: [
      ...(config.mode === 'read' ? [{ name: 'resource', type: 'fhir-resource' as const, description: 'The resource read' }] : []),
      { name: 'bundle', type: 'fhir-bundle', description: 'A searchset Bundle with every entry found (read: the one resource)' },
    ],
  }),
  portsNote: '`resource` exists in `read` mode only.',
  services: ['fetch'],
  errors: {
    ...FHIR_CONNECTION_ERRORS,
    FHIR_QUERY_INVALID: 'the query (after filling its placeholders) is not `Type?params` (search) or `Type/id` (read), or a placeholder has no value',
  },
});
