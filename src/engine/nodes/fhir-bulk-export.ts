import { z } from 'zod';
import { describeNode } from '../node-descriptor';
import { FHIR_CONNECTION_ERRORS, fhirConnectorField } from './fhir-query';

/** The Bulk Data limit of exports running at once per organization, counted across every server and worker process. */
export const BULK_EXPORTS_PER_ORG = 5;

const Config = z
  .object({
    connector: fhirConnectorField,
    level: z
      .enum(['system', 'group', 'patient'])
      .default('system')
      .describe("system: `[base]/$export` (everything); group: `[base]/Group/{id}/$export`; patient: `[base]/Patient/$export` (all patients' compartments)"),
    group_id: z
      .string()
      .max(64)
      .regex(/^[A-Za-z0-9\-.]*$/, 'a FHIR id')
      .default('')
      .describe('group level: the id of the Group to export'),
    types: z
      .array(z.string().regex(/^[A-Z][A-Za-z]+$/, 'a FHIR resource type, e.g. Patient'))
      .default([])
      .describe('`_type`: export only these resource types (all when empty)'),
    since: z.iso.datetime({ offset: true }).optional().describe('`_since`: only resources changed after this instant (e.g. 2024-01-01T00:00:00Z)'),
    output: z
      .enum(['resources', 'counts'])
      .default('resources')
      .describe('resources: output every exported resource (up to max_resources); counts: only how many of each type (nothing is held in memory)'),
    max_resources: z.number().int().min(1).max(100_000).default(10_000).describe('resources: fail rather than output more than this many resources'),
    max_wait_s: z
      .number()
      .int()
      .min(1)
      .max(86_400)
      .default(600)
      .describe('Give up (and cancel the export on the server) when it is not ready within this many seconds, waiting for a free slot included'),
    on_limit: z
      .enum(['wait', 'fail'])
      .default('wait')
      .describe(`When ${BULK_EXPORTS_PER_ORG} exports of the organization already run: wait for one to finish, or fail at once (BULK_EXPORT_LIMIT)`),
    timeout_ms: z.number().int().min(100).max(600_000).default(60_000).describe('Time limit of each request, reading one NDJSON file included'),
  })
  .superRefine((c, ctx) => {
    if (c.level === 'group' && !c.group_id) ctx.addIssue({ code: 'custom', path: ['group_id'], message: 'a group export needs group_id' });
  });

export const fhirBulkExport = describeNode({
  id: 'fhir-bulk-export',
  name: 'FHIR bulk export',
  idBase: 'export',
  category: 'healthcare',
  description: [
    'Runs a FHIR Bulk Data $export (system, group or patient level) on a fhir connector',
    'and outputs the exported resources as they stream in, or counts per type.',
  ].join(' '),
  version: '1.0.0',
  keywords: ['fhir', 'bulk', 'bulk data', 'export', '$export', 'ndjson', 'flat fhir', 'population', 'group', 'extract', 'warehouse', 'analytics', 'connector'],
  side_effect: 'none',
  documentation: [
    'Runs the [Bulk Data Access](https://hl7.org/fhir/uv/bulkdata/export.html) `$export` on the server of the',
    "`connector`: kicks it off with `Prefer: respond-async`, polls the status URL the server gives (the 202's",
    '`Content-Location`), pausing as its `Retry-After` says (between 1 s and 60 s), reads the manifest, then',
    'streams each NDJSON file line by line as it arrives (no file is held whole). `types` and `since` become',
    "`_type` and `_since`. The connector's token goes with the file requests when the manifest requires it, and",
    "only to the FHIR server's own host. When done, the node tells the server it may delete the files. Each",
    "request, reading one file included, is also bound by the instance's outbound limits (`OUTBOUND_TIMEOUT_MS`,",
    '`OUTBOUND_MAX_BYTES`, 10 MB by default): servers that write larger files need those raised.',
    '',
    '**Outputs.** `counts` is how many resources of each type were exported (`{"Patient": 13, "Condition":',
    '555}`). With `output` `resources` (default), `resources` is the list of every exported resource, in file',
    'order: connect it to a `for-each`, or to a node that writes them on. Pipelines hold their values in memory',
    'and in the execution record, so above `max_resources` the node fails (`BULK_EXPORT_TOO_LARGE`) rather than',
    'try: narrow the export with `types`/`since`, or use `counts` (which reads every file but keeps nothing).',
    '',
    `**At most ${BULK_EXPORTS_PER_ORG} exports run at once per organization** (the spec's bulk export limit). A sixth`,
    'waits for a free slot (`on_limit` `wait`, within `max_wait_s`) or fails at once with `BULK_EXPORT_LIMIT`',
    '(`fail`). The five are counted in the database, across every server and worker process.',
    '',
    'Past `max_wait_s` the node cancels the export on the server (`DELETE` on the status URL) and fails',
    '(`FHIR_EXPORT_TIMEOUT`). An export reads only: test mode runs it too.',
  ].join('\n'),
  config: Config,
  example: {
    connector: 'hospital-fhir',
    level: 'group',
    group_id: 'diabetes-cohort',
    types: ['Patient', 'Condition', 'Observation'],
    output: 'resources',
    max_resources: 10000,
    max_wait_s: 600,
    on_limit: 'wait',
  },
  ui: {
    order: ['connector', 'level', 'group_id', 'types', 'since', 'output', 'max_resources', 'max_wait_s', 'on_limit', 'timeout_ms'],
    fields: {
      connector: { title: 'Connector', widget: 'connector', connectorType: 'fhir' },
      types: { title: 'Resource types (_type)' },
      since: { title: 'Changed since (_since)', placeholder: '2024-01-01T00:00:00Z' },
    },
  },
  plan: {
    madeFor: 'fhir',
    role: 'source',
    stage: 'source',
    input: 'start',
    output: 'resources',
    jobs: ['read-fhir'],
    scheduled: { reads: 'fhir', all: true },
    gives: () => ({ type: 'json', kind: 'fhir', list: true }),
    cue: /\bbulk (data|export|fhir)|\$export\b|\bexport (all|every|the whole)|\bgroup export\b|\bcohort\b/,
    configure: (a) => {
      if (a.resourceTypes.length) {
        a.config.types = a.resourceTypes;
        a.filled.push(`types ${a.resourceTypes.join(', ')}`);
      }
      const group = a.text.match(/\bgroup\s+["']?([A-Za-z0-9\-.]{1,64})["']?/);
      if (group && !/^(export|level)$/i.test(group[1]!)) {
        a.config.level = 'group';
        a.config.group_id = group[1];
        a.filled.push(`group ${group[1]}`);
      }
    },
  },
  ports: (config) => ({
    inputs: [
      { name: 'start', type: 'any', optional: true, description: 'Connect the trigger (or any node) to run the export after it; its value is not used' },
    ],
    outputs: [
      ...(config.output === 'resources' ? [{ name: 'resources', type: 'json' as const, description: 'Every exported resource, in file order' }] : []),
      { name: 'counts', type: 'json', description: 'How many resources of each type, e.g. {"Patient": 13}' },
    ],
  }),
  portsNote: '`resources` exists when `output` is `resources`.',
  services: ['fetch'],
  errors: {
    ...FHIR_CONNECTION_ERRORS,
    BULK_EXPORT_LIMIT: `${BULK_EXPORTS_PER_ORG} exports of the organization already run and \`on_limit\` is \`fail\` (or no slot freed within \`max_wait_s\`)`,
    BULK_EXPORT_TOO_LARGE: 'the export holds more than `max_resources` resources (with `output` `resources`)',
    FHIR_EXPORT_FAILED: 'the server reported the export failed (the message has its OperationOutcome)',
    FHIR_EXPORT_TIMEOUT: 'the export was not ready within `max_wait_s` (it was cancelled on the server)',
  },
});
