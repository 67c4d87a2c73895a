import { z } from 'zod';
import { describeNode } from '../node-descriptor';

const Config = z.object({
  types: z
    .array(z.string().regex(/^[A-Z][A-Za-z]+$/, 'a FHIR resource type, e.g. Patient'))
    .default([])
    .describe('Keep only resources of these types (e.g. ["Patient", "Observation"]); empty keeps all'),
  relative_references: z
    .boolean()
    .default(false)
    .describe('Rewrite references to other entries made by fullUrl (urn:uuid:…) as Type/id, so each resource stands alone (e.g. to PUT it to a FHIR server)'),
});

export const fhirBundleSplit = describeNode({
  id: 'fhir-bundle-split',
  name: 'FHIR bundle split',
  idBase: 'split',
  category: 'healthcare',
  description: 'Takes the resources out of a FHIR Bundle, optionally only some types, as a list (for a for-each) and grouped by type.',
  version: '1.0.0',
  keywords: ['fhir', 'bundle', 'split', 'entries', 'resources', 'unbundle', 'filter', 'type', 'for each', 'iterate'],
  side_effect: 'none',
  documentation: [
    "`resources` is the list of the bundle's resources in entry order (only the `types` asked for, when given):",
    'connect it to a `for-each` whose body\'s trigger declares `fields: {"item": "fhir-resource"}` to handle one',
    'resource at a time. `by_type` groups the same resources by type (`{"Patient": [...], "Encounter": [...]}`)',
    'for a downstream node that wants one kind only.',
    '',
    'Entries of converted messages reference each other by `urn:uuid:` full URLs, which mean nothing outside the',
    'bundle; `relative_references` rewrites those that point to an entry with an id as `Type/id`.',
    '',
    '**Example**: the bundle converted from `ADT-A01-01.hl7` (119 entries: MessageHeader, Provenance, Patient,',
    'Encounter, Organizations, Practitioners, Locations, Conditions, Observations…) with `types: ["Patient",',
    '"Condition"]` gives `resources` with its Patient and its three Conditions, and `by_type`',
    '`{"Patient": [1 resource], "Condition": [3 resources]}`.',
  ].join('\n'),
  config: Config,
  example: { types: ['Patient', 'Condition'], relative_references: false },
  ui: { order: ['types', 'relative_references'] },
  plan: {
    madeFor: 'fhir',
    edit: { cue: /\bsplit\w*\b|\bunbundl\w*/, names: /\bsplit\w*\b|\bentries\b/ },
    role: 'step',
    stage: 'work',
    input: 'bundle',
    output: 'resources',
    search: false,
    converter: 'converts the value',
    takes: (f) => f.type === 'fhir-bundle',
    gives: () => ({ type: 'json', kind: 'fhir', list: true }),
    cue: /\bsplit\w*[^.]{0,40}?\bbundles?\b|\bunbundl\w*|\bbundle entries\b|\bentry by entry\b/,
    // FHIRPath reads each entry of a Bundle itself; FHIR made of text needs no split unless the request says so
    dropWhen: ({ lower, others }) =>
      others.some((o) => o.plan.jobs?.includes('extract') && (o.plan.takes?.({ type: 'fhir-bundle', kind: 'fhir' }) || !/\bsplit/.test(lower))),
    configure: (a) => {
      if (a.resourceTypes.length && !(a.resourceTypes.length === 1 && a.resourceTypes[0] === 'Patient' && a.flow.kind !== 'fhir')) {
        a.config.types = a.resourceTypes;
        a.filled.push(`types ${a.resourceTypes.join(', ')}`);
      }
    },
  },
  ports: () => ({
    inputs: [{ name: 'bundle', type: 'fhir-bundle', description: 'A FHIR Bundle' }],
    outputs: [
      { name: 'resources', type: 'json', description: 'The resources, in entry order (a list, for for-each)' },
      { name: 'by_type', type: 'json', description: 'Resource type → its resources' },
    ],
  }),
  errors: { FHIR_NOT_BUNDLE: 'the input is not a FHIR Bundle (the message says what it is)' },
});
