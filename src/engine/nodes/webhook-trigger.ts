import { z } from 'zod';
import { describeNode } from '../node-descriptor';

const Config = z.object({});

export const webhookTrigger = describeNode({
  id: 'webhook-trigger',
  name: 'Webhook trigger',
  idBase: 'webhook',
  category: 'control',
  description: 'Starts a deployed pipeline when an outside system POSTs to its webhook URL.',
  version: '1.0.0',
  keywords: ['webhook', 'http', 'callback', 'inbound', 'receive', 'post', 'event', 'trigger'],
  side_effect: 'none',
  trigger: {
    events: ['webhook'],
    toInputs: (event) => (event.kind === 'webhook' ? { body: event.body, headers: event.headers, query: event.query } : {}),
    sampleInputs: () => ({ body: {}, headers: { 'content-type': 'application/json' }, query: {} }),
  },
  documentation: [
    'Gives the pipeline its own URL: `POST /api/webhooks/{pipelineId}`. Each call to it starts an execution',
    'of the **deployed** pipeline (an undeployed one answers 409 `PIPELINE_NOT_DEPLOYED`; the caller needs an',
    'API key with the `execute` scope; the answer is 202 with the `execution_id`) with the inputs',
    '`{"body": <parsed request body>, "headers": {…}, "query": {…}}`. A JSON request body arrives parsed;',
    'any other content type (an HL7 v2 message, XML) arrives as text. In a manual test run with',
    'hand-written inputs and no `body`, `body` carries the whole inputs.',
    '',
    'Check what arrives before trusting it: a `json-schema-validate` on `body`, or a `condition` on',
    '`event.headers` (header names are lower-case).',
    '',
    '**Example**: a lab system posts results:',
    '```sh',
    'curl -X POST "$BASE/api/webhooks/$PIPELINE_ID" -H "Authorization: Bearer $KEY" \\',
    '  -H "X-Organization-ID: $ORG" -H "Content-Type: application/json" \\',
    '  -d \'{"resourceType": "Observation", "status": "final", "code": {"text": "HbA1c"}}\'',
    '```',
    'then `body` carries the Observation to the next node.',
  ].join('\n'),
  config: Config,
  example: {},
  plan: {
    role: 'trigger',
    stage: 'trigger',
    search: false,
    starts: ({ data, x12 }) => [{ port: 'body', flow: { type: 'json', kind: data, x12 } }],
  },
  ports: () => ({
    inputs: [],
    outputs: [
      { name: 'event', type: 'trigger-event', description: 'The execution inputs: {body, headers, query}' },
      { name: 'body', type: 'json', description: 'The request body' },
    ],
  }),
  errors: {},
});
