import { z } from 'zod';
import { jsonataField } from '../lib/jsonata';
import { describeNode } from '../node-descriptor';
import { EXTRACTION_NAMES } from '../node-plan';

const Config = z.object({
  expression: jsonataField('JSONata expression evaluated against the input; its result is the output. One evaluation may take 5 s and nest 3000 levels deep'),
});

/** HL7 v2 fields by the words a request names them with, as JSONata on a parsed message. */
const HL7_FIELDS: Record<string, [string, string]> = {
  mrn: ['mrn', '$hl7($, "PID-3.1")'],
  'patient id': ['mrn', '$hl7($, "PID-3.1")'],
  name: ['name', '$hl7($, "PID-5.2") & " " & $hl7($, "PID-5.1")'],
  'birth ?date': ['birth_date', '$hl7($, "PID-7")'],
  dob: ['birth_date', '$hl7($, "PID-7")'],
  gender: ['gender', '$hl7($, "PID-8")'],
  sex: ['gender', '$hl7($, "PID-8")'],
  'message type': ['message_type', 'message_type'],
  visit: ['visit', '$hl7($, "PV1-19")'],
  'obx|results?|values?|observations?': ['results', '$hl7all($, "OBX-5")'],
};

export const jsonataTransform = describeNode({
  id: 'jsonata-transform',
  name: 'JSONata transform',
  idBase: 'transform',
  category: 'data',
  description: 'Reshapes JSON with a JSONata expression: map, select, compute, aggregate.',
  version: '1.0.0',
  keywords: ['jsonata', 'transform', 'map', 'mapping', 'reshape', 'expression', 'json', 'query'],
  side_effect: 'none',
  documentation: [
    'Evaluates a [JSONata](https://docs.jsonata.org) `expression` with the incoming value as `$` and sends',
    'the result on, as plain JSON (an expression that matches nothing gives `null`). Use it to pick fields',
    'out of FHIR resources, flatten bundles, rename keys or compute values. The expression is compiled when',
    'the pipeline is saved or validated, so syntax errors show up before anything runs. One evaluation may',
    'take 5 s and nest 3000 levels deep (enough for recursive functions a few hundred calls deep); past that',
    'it fails instead of hanging the worker.',
    '',
    '**Example**: a FHIR Patient to a flat row:',
    '```json',
    '{"expression": "{\\"id\\": id, \\"family\\": name[0].family, \\"given\\": name[0].given[0], \\"born\\": birthDate, \\"zip\\": address[0].postalCode}"}',
    '```',
    'Over a Bundle: `entry.resource[resourceType = "Condition"].code.coding[0].display`.',
  ].join('\n'),
  config: Config,
  example: { expression: '{"id": id, "family": name[0].family, "born": birthDate}' },
  ui: { fields: { expression: { widget: 'expression' } } },
  plan: {
    edit: { cue: /\bjsonata\b|\btransform\b/, names: EXTRACTION_NAMES },
    role: 'step',
    stage: 'work',
    input: 'input',
    output: 'output',
    search: false,
    takes: (f) => f.type !== 'text',
    gives: (f) => ({ type: 'json', kind: f.kind === 'fhir' ? 'fhir' : 'json', list: f.list }),
    cue: /\bjsonata\b|\breshap\w*|\btransform\w*|\bmap (the |each )?(rows|columns|fields)\b/,
    answers: { 'extract-fields': { when: (a) => a.data === 'hl7' && !a.fhir, why: 'HL7 v2 fields read with $hl7()' } },
    runs: { language: 'jsonata', field: 'expression' },
    configure: (a) => {
      if (!a.config.expression && a.flow.kind === 'hl7') {
        const fields = Object.entries(HL7_FIELDS).filter(([w]) => new RegExp(`\\b${w}`).test(a.lower));
        const picked = fields.length ? fields : Object.entries(HL7_FIELDS).slice(0, 3);
        a.config.expression = `{${[...new Map(picked.map(([, kv]) => kv)).entries()].map(([k, v]) => `"${k}": ${v}`).join(', ')}}`;
        a.filled.push(`HL7 v2 fields ${[...new Set(picked.map(([, [k]]) => k))].join(', ')}`);
      } else if (!a.config.expression) {
        const keys = a.fields.map((f) => f.replace(/\s+/g, '_'));
        a.config.expression = keys.length ? `{${keys.map((k) => `"${k}": ${k}`).join(', ')}}` : '$';
        a.missing.push('expression: write the mapping (it passes the value on as it is)');
      }
    },
  },
  ports: () => ({
    inputs: [{ name: 'input', type: 'any', description: 'The value to transform ($ in the expression)' }],
    outputs: [{ name: 'output', type: 'json', description: 'The result of the expression' }],
  }),
  errors: {
    INVALID_EXPRESSION: 'the expression does not compile (message and position from JSONata)',
    TRANSFORM_FAILED: 'it failed on this input (e.g. a type error, `$sum(["a"])`), or returned a function',
  },
});
