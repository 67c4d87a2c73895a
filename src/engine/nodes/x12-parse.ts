import { z } from 'zod';
import { describeNode } from '../node-descriptor';

const Config = z.object({
  strict: z
    .boolean()
    .default(false)
    .describe(
      [
        'Control counts and numbers must match (SE01 segment count, SE02 = ST02, GE01, GE02 = GS06, IEA01, IEA02 = ISA13,',
        'every trailer present, a 106-character ISA); when false they are listed in the value\'s "warnings" instead',
      ].join(' '),
    ),
  on_invalid: z
    .enum(['route', 'fail'])
    .default('route')
    .describe('route: send text that does not parse (or fails the strict checks) out of "invalid"; fail: stop the execution with the errors'),
});

export const x12Parse = describeNode({
  id: 'x12-parse',
  name: 'X12 parse',
  idBase: 'parse',
  category: 'claims',
  description: 'Parses X12 EDI text (837P/837I claims, 835 remittances, 834, 270/271, 276/277) into an x12-interchange value, losslessly.',
  version: '1.0.0',
  keywords: ['x12', 'edi', 'parse', '837', '835', '834', '270', '271', '276', '277', 'claim', 'remittance', 'hipaa', 'interchange', 'isa'],
  side_effect: 'none',
  documentation: [
    'Reads one X12 interchange (ISA … IEA) into the `x12-interchange` value: the separators from ISA, the',
    "ISA/GS/ST envelopes and their trailers, and each transaction set's segments grouped into the loops of its",
    'implementation guide (837: `2000A` billing provider, `2000B` subscriber, `2000C` patient, `2300` claim,',
    '`2400` service line…; 835: `1000A`/`1000B`, `2000`, `2100` claim payment, `2110` service payment). Every',
    'segment is an object keyed as the guides name elements (`CLM01`, `NM109`); a composite is a list of its',
    'components (`SV101: ["HC", "99213"]`). The value serializes back to the same text, so nothing is lost.',
    '',
    'Line breaks between segments (LF, CRLF, CR or none) are read and kept; a byte-order mark is dropped.',
    'Text that is not X12 goes to `invalid` as `{"text": …, "errors": [{"code": "X12_INVALID", "message":',
    '"Not X12: the text must start with an ISA segment, found \\"patient_id,f\\" (line 1, column 1, segment 1)",',
    '"position": {"segment": 1, "offset": 0, "line": 1, "column": 1}}]}`. In strict mode a control mismatch goes there too, e.g.',
    '`{"code": "SE02_CONTROL", "segment": "SE", "element": "SE02", "message": "SE02 control number \\"4323\\"',
    'does not match ST02 \\"4321\\""}`; otherwise it is listed in the value\'s `warnings` and parsing goes on.',
    '',
    '**Example**: a manual trigger with `fields: {"claim": "text"}` → X12 parse → `x12-837-to-fhir`, or →',
    'JSONata `groups.transactions.**[loop="2300"].segments[id="CLM"].{"claim": CLM01, "total": $number(CLM02)}`.',
  ].join('\n'),
  config: Config,
  example: { strict: true, on_invalid: 'route' },
  plan: {
    madeFor: 'x12',
    role: 'step',
    stage: 'parse',
    input: 'text',
    output: 'interchange',
    aside: 'invalid',
    jobs: ['parse'],
    search: false,
    converter: 'converts the value',
    takes: (f) => f.kind === 'x12' && f.type === 'text',
    gives: (f) => ({ type: 'x12-interchange', kind: 'x12', x12: f.x12 }),
    cue: /\bparse\w*\b[^.]{0,30}\b(x12|edi|83[457]|27[0-7]|claims?|remittances?|eligibility)/,
    parses: { data: 'x12' },
    takesRaw: true,
  },
  ports: () => ({
    inputs: [{ name: 'text', type: 'text', description: 'X12 EDI text, ISA to IEA' }],
    outputs: [
      { name: 'interchange', type: 'x12-interchange', description: 'The parsed interchange (separators, envelopes, loops, segments)' },
      { name: 'invalid', type: 'json', description: '{text, errors: [{code, message, segment?, element?, position}]} when the text does not parse' },
    ],
  }),
  errors: {
    X12_INVALID: 'the input is not text, or (with `on_invalid` fail) the text is not X12; the message gives line, column and segment',
    X12_CONTROL_MISMATCH: 'strict mode with `on_invalid` fail: a control count or number does not match (the message names each segment and element)',
  },
});
