import { z } from 'zod';
import { describeNode } from '../node-descriptor';

const Config = z.object({
  segment_terminator: z
    .enum(['CR', 'LF', 'CRLF'])
    .default('CR')
    .describe('What ends each segment: CR is what HL7 and MLLP expect; LF or CRLF make a file one segment a line'),
});

export const hl7v2Serialize = describeNode({
  id: 'hl7v2-serialize',
  name: 'HL7 v2 serialize',
  idBase: 'serialize',
  category: 'healthcare',
  description: 'Writes an hl7v2-message value back as HL7 v2 text, exactly as it was parsed (or as edited).',
  version: '1.0.0',
  keywords: ['hl7', 'hl7v2', 'v2', 'serialize', 'encode', 'write', 'text', 'er7', 'pipe', 'mllp', 'outbound'],
  side_effect: 'none',
  documentation: [
    'Joins the segments of an `hl7v2-message` value with the delimiters its MSH declares, each segment',
    'followed by the terminator (CR by default). Fields are written as they are held, raw: a message parsed',
    'and serialized comes back byte for byte (line ends aside). A value built or edited by a code or JSONata',
    'node is checked first: a field holding the field separator or a line break, a first segment that is',
    'not MSH, or a segment that is not `{id, fields}` fails with `HL7_INVALID` naming the segment and field.',
    '',
    '**Example**: the value of `hl7v2-parse` for an ADT^A01 gives',
    '`MSH|^~\\&|ADTApp|GHH|EHRApp|GHR|20240105083000||ADT^A01^ADT_A01|MSG00001|P|2.5.1` ⏎',
    '`PID|1||PATID1234^^^GHH^MR||EVERYMAN^ADAM^A||19610615|M` ⏎ (⏎ = CR).',
  ].join('\n'),
  config: Config,
  example: { segment_terminator: 'CR' },
  plan: {
    madeFor: 'hl7',
    role: 'step',
    stage: 'encode',
    input: 'message',
    output: 'text',
    search: false,
    converter: 'converts the value',
    takes: (f) => f.kind === 'hl7',
    gives: () => ({ type: 'text', kind: 'hl7' }),
    cue: /\bserializ\w*|\bback to (hl7|text|er7|pipe)/,
    dropWhen: ({ data }) => data !== 'hl7',
  },
  ports: () => ({
    inputs: [{ name: 'message', type: 'hl7v2-message', description: 'The message to write' }],
    outputs: [{ name: 'text', type: 'text', description: 'HL7 v2 text, each segment ended by the terminator' }],
  }),
  errors: { HL7_INVALID: 'the input is not a well-formed hl7v2-message (the message names the bad segment and field)' },
});
