import { z } from 'zod';
import { describeNode } from '../node-descriptor';
import { FHIR_CONNECTION_ERRORS, fhirConnectorField } from './fhir-query';
import { isFhir } from '../node-plan';

/** Verbs that put data somewhere, for the words that ask for a FHIR write. */
const WRITE =
  '(?:write|writes|writing|written|store|save|load|post|push|upsert|update|persist|create|send|forward|deliver|put|insert|upload|sync|land|' +
  'keep|archive|copy)\\w*';
/** Words that ask to create a resource only when it is not there yet. */
const CONDITIONAL = /\bunless\b[^.]*\bexists?\b|\bif (it |one )?(does not|doesn't) (already )?exist|\bconditional\b|\bnot already there\b/;

/** The tag system that carries a write's idempotency key on the resources it creates. */
export const IDEMPOTENCY_TAG = 'https://clinflow.dev/fhir/idempotency-key';

const Config = z
  .object({
    connector: fhirConnectorField,
    operation: z
      .enum(['create', 'update', 'conditional-create', 'transaction'])
      .default('create')
      .describe(
        [
          'create: POST a new resource; update: PUT it by its id; conditional-create: POST',
          'unless `if_none_exist` finds one; transaction: POST a transaction (or batch) Bundle',
        ].join(' '),
      ),
    if_none_exist: z
      .string()
      .max(1000)
      .optional()
      .describe(
        [
          'conditional-create: the search that finds an existing resource, e.g.',
          '`identifier=urn:mrn|{{identifier[0].value}}`; `{{…}}` is FHIRPath on the resource',
        ].join(' '),
      ),
    validate: z
      .boolean()
      .default(true)
      .describe('Check the resource against FHIR R4 before sending it (structure, cardinality, types); invalid ones fail without a request'),
    timeout_ms: z.number().int().min(100).max(300_000).default(30_000).describe('Time limit of the request to the server'),
  })
  .superRefine((c, ctx) => {
    if (c.operation === 'conditional-create' && !c.if_none_exist?.trim()) {
      ctx.addIssue({
        code: 'custom',
        path: ['if_none_exist'],
        message: 'a conditional create needs if_none_exist (e.g. identifier=urn:mrn|{{identifier[0].value}})',
      });
    }
  });

export const fhirWrite = describeNode({
  id: 'fhir-write',
  name: 'FHIR write',
  idBase: 'write',
  category: 'healthcare',
  description:
    'Writes a FHIR resource (create, update, conditional create) or a transaction Bundle to a FHIR server through a fhir connector, never twice on a retry.',
  version: '1.0.0',
  keywords: [
    'fhir',
    'r4',
    'write',
    'create',
    'update',
    'post',
    'put',
    'conditional',
    'if-none-exist',
    'transaction',
    'bundle',
    'server',
    'ehr',
    'connector',
    'upsert',
    'store',
  ],
  side_effect: 'write',
  documentation: [
    'Sends the `resource` input to the FHIR server of the `connector` (base URL and auth from the connector):',
    '',
    '- **create** — `POST [base]/{type}`',
    '- **update** — `PUT [base]/{type}/{id}` (the resource needs an `id`)',
    '- **conditional-create** — `POST` with `If-None-Exist: <if_none_exist>`: the server creates the resource only',
    '  when the search finds none, else answers with the one it has. `{{…}}` in `if_none_exist` is FHIRPath on the',
    "  resource, URL-encoded: `identifier=urn:mrn|{{identifier.where(system='urn:mrn').value}}`.",
    "- **transaction** — `POST [base]` with a `transaction` or `batch` Bundle; `result` is the server's",
    "  `transaction-response`. A transaction with a failed entry fails the node (with each failed entry's",
    '  OperationOutcome); failed entries of a batch are logged as warnings.',
    '',
    '`result` is what the server answered (the stored resource, the transaction-response Bundle, or the',
    'OperationOutcome when it sent only that); `location` is its Location header (`Patient/123/_history/1`), when',
    "there is one. A non-2xx answer fails the node with the OperationOutcome's issue text (`FHIR_ERROR`); use the",
    "node settings' retry for passing failures. When nothing reads `result` — no connection from it, and a production",
    'run whose data policy keeps no payload of a completed run (`errors`, `metadata`) — the server is asked for a',
    '`Prefer: return=minimal` answer: `result` then holds only what the server sends back of it (for a transaction,',
    "each entry's status and location).",
    '',
    '**Never twice on a retry.** A retried node (or a retried execution) must not create a second copy. `update`',
    'and `conditional-create` are idempotent by nature. For `create`, the node tags the resource with',
    `\`meta.tag\` \`{"system": "${IDEMPOTENCY_TAG}", "code": <key>}\` and sends it as a conditional create`,
    '`If-None-Exist: _tag=<system>|<key>`, where the key is a hash of the execution, the node and the resource: a',
    'retry finds what the first attempt stored and the server answers with it (200) instead of creating another.',
    'In a transaction, every `POST` entry without its own `ifNoneExist` gets the same treatment (key per entry).',
    'The tag stays on the stored resource (it tells which execution wrote it). Two identical resources sent by one',
    'node in one execution (e.g. the same item twice in a for-each) are stored once. The server must support',
    'conditional create and `_tag` search (most do: HAPI, Medplum, Azure, Google).',
    '',
    'With `validate` (default), the resource is checked against FHIR R4 first; an invalid one fails the node',
    '(`FHIR_INVALID`, listing the issues) and nothing is sent. A value fhir-validate passed, unchanged since, is not',
    'checked again.',
    '',
    '**Test mode**: no connection is made at all. The node validates the payload and returns what it would send,',
    '`{"simulated": true, "request": {"method", "url", "headers", "body"}}` (credentials never shown), marked',
    '`simulated`.',
  ].join('\n'),
  config: Config,
  example: {
    connector: 'hospital-fhir',
    operation: 'conditional-create',
    if_none_exist: "identifier=urn:mrn|{{identifier.where(system='urn:mrn').value}}",
    validate: true,
    timeout_ms: 30000,
  },
  ui: {
    order: ['connector', 'operation', 'if_none_exist', 'validate', 'timeout_ms'],
    fields: {
      connector: { title: 'Connector', widget: 'connector', connectorType: 'fhir' },
      if_none_exist: { placeholder: 'identifier=urn:mrn|{{identifier[0].value}}' },
    },
  },
  plan: {
    madeFor: 'fhir',
    edit: { cue: /\bfhir server\b|\behr\b|\bfhir store\b|\bhapi\b|\b(the|a|our) \w+ fhir\b|\bserver\b/ },
    role: 'sink',
    stage: 'sink',
    input: 'resource',
    output: 'result',
    search: false,
    takes: (f) => isFhir(f) && !f.list && (f.type !== 'fhir-bundle' || f.bundle === 'transaction' || f.bundle === 'batch'),
    adapt: (f) => ({ operation: f.type === 'fhir-bundle' || (f.type !== 'fhir-resource' && f.bundle) ? 'transaction' : 'create' }),
    cue: new RegExp(
      `\\b${WRITE}[^.]{0,50}?\\b(to|into|in|on)\\s+(?:the\\s+|our\\s+|a\\s+|an\\s+)?` +
        '(?:(?!webhook|endpoint)[^.]){0,25}?\\b(fhir|ehr|hapi|server|repository|fhir store)\\b',
    ),
    // "store it in the warehouse / send it to the API": another sink was meant, unless FHIR is named
    dropWhen: ({ step, others }) => !/fhir|\behr\b|hapi/.test(step.said) && others.some((o) => o.plan.role === 'sink'),
    precededBy: { type: 'fhir-validate', said: 'validate before writing', why: 'so what the server would refuse goes aside' },
    configure: (a) => {
      if (a.config.operation === 'create' && /\bupdate\b/.test(a.lower)) {
        a.config.operation = 'update';
        a.filled.push('operation update');
      } else if (a.config.operation === 'create' && CONDITIONAL.test(a.lower)) {
        a.config.operation = 'conditional-create';
        a.config.if_none_exist = 'identifier={{identifier.first().value}}';
        a.filled.push('conditional create on the first identifier');
        a.missing.push('if_none_exist: check the search that finds an existing resource (identifier={{identifier.first().value}})');
      }
    },
    keeps: (f) => f.kind === 'fhir' || f.kind === 'json',
  },
  ports: (config) => ({
    inputs: [
      config.operation === 'transaction'
        ? { name: 'resource', type: 'fhir-bundle', description: 'A transaction or batch Bundle' }
        : { name: 'resource', type: 'fhir-resource', description: 'The resource to write' },
    ],
    outputs: [
      { name: 'result', type: 'json', description: "The server's answer: the stored resource, the transaction-response, or its OperationOutcome" },
      { name: 'location', type: 'text', description: 'The Location header (Type/id/_history/version), when the server sent one' },
    ],
  }),
  portsNote: '`resource` is a `fhir-bundle` for `transaction`, a `fhir-resource` otherwise.',
  services: ['fetch'],
  errors: {
    ...FHIR_CONNECTION_ERRORS,
    FHIR_INVALID: [
      'the resource does not conform to FHIR R4 (with `validate`), or does not fit the operation',
      '(an update without id, a transaction that is not a transaction or batch Bundle)',
    ].join(' '),
    FHIR_QUERY_INVALID: 'a `{{…}}` of `if_none_exist` does not parse as FHIRPath or finds no value in the resource',
  },
});
