import { z } from 'zod';
import { describeNode } from '../node-descriptor';

const Config = z.object({
  on_invalid: z
    .enum(['route', 'fail'])
    .default('route')
    .describe('route: send text that is not HL7 v2 out of "invalid" to quarantine it; fail: stop the execution with the errors'),
});

export const hl7v2Parse = describeNode({
  id: 'hl7v2-parse',
  name: 'HL7 v2 parse',
  idBase: 'parse',
  category: 'healthcare',
  description: 'Parses HL7 v2 text (ADT, ORU, ORM, SIU, VXU, MDM… any version, batches too) into an hl7v2-message value, losslessly.',
  version: '1.0.0',
  keywords: ['hl7', 'hl7v2', 'v2', 'parse', 'adt', 'oru', 'orm', 'siu', 'vxu', 'mdm', 'msh', 'pipe', 'er7', 'batch', 'mllp', 'message'],
  side_effect: 'none',
  documentation: [
    'Reads HL7 v2 text as real feeds send it: segments ending with CR, LF or CRLF, a byte-order mark, the',
    'delimiters the message declares in MSH-1 and MSH-2, Z-segments. The `hl7v2-message` value keeps every',
    'field as sent (escape sequences included), so `hl7v2-serialize` gives the same message back, and adds the',
    'header facts: `message_type`, `trigger_event`, `structure`, `control_id`, `version`, `sending_application`…',
    '`segments[id="PID"].fields[5]` is PID-5 (the index is the HL7 field number). In JSONata nodes,',
    '`$hl7($, "PID-5.1")` reads a component decoded (`\\T\\` → `&`) and `$hl7all($, "OBX-5")` every occurrence.',
    '',
    'A batch (FHS/BHS … BTS/FTS, or several messages one after the other) fires `messages` instead: the list',
    'of its messages in order, ready for a `for-each` (its body\'s trigger declares `fields: {"item":',
    '"hl7v2-message"}`). The envelope segments are not carried; a batch count that does not match BTS-1 or',
    'FTS-1 is logged as a warning.',
    '',
    'Text that is not HL7 v2 goes to `invalid` as `{"text": …, "errors": [{"code": "HL7_INVALID", "message":',
    '"Not HL7 v2: a message starts with an MSH segment (or FHS/BHS for a batch), found \\"patient_id,family\\"',
    '(line 1).", "line": 1}]}`; every bad line is listed with its number.',
    '',
    '**Example**: a manual trigger with `fields: {"message": "text"}` receives',
    '`MSH|^~\\&|ADTApp|GHH|EHRApp|GHR|20240105083000||ADT^A01^ADT_A01|MSG00001|P|2.5.1` ⏎',
    '`PID|1||PATID1234^^^GHH^MR||EVERYMAN^ADAM^A||19610615|M`; the parse gives',
    '`{"message_type": "ADT", "trigger_event": "A01", "control_id": "MSG00001", "version": "2.5.1", …,',
    '"segments": [{"id": "MSH", "fields": ["MSH", "|", "^~\\\\&", "ADTApp", …]}, {"id": "PID", "fields":',
    '["PID", "1", "", "PATID1234^^^GHH^MR", "", "EVERYMAN^ADAM^A", "", "19610615", "M"]}]}` and',
    '`$hl7($, "PID-5.2")` is `"ADAM"`.',
  ].join('\n'),
  config: Config,
  example: { on_invalid: 'route' },
  plan: {
    madeFor: 'hl7',
    role: 'step',
    stage: 'parse',
    input: 'text',
    output: 'message',
    aside: 'invalid',
    jobs: ['parse'],
    search: false,
    converter: 'converts the value',
    takes: (f) => f.kind === 'hl7' && f.type === 'text',
    gives: () => ({ type: 'hl7v2-message', kind: 'hl7' }),
    cue: /\bparse\w*\b[^.]{0,30}\b(hl7|adt|oru|orm|message)|\b(hl7|adt|oru)\b[^.]{0,20}\bpars/,
    parses: { data: 'hl7', alone: true },
    takesRaw: true,
  },
  ports: () => ({
    inputs: [{ name: 'text', type: 'text', description: 'HL7 v2 text: one message, or a batch' }],
    outputs: [
      { name: 'message', type: 'hl7v2-message', description: 'The parsed message (header facts, delimiters, segments with raw fields)' },
      { name: 'messages', type: 'json', description: 'For a batch: its messages (hl7v2-message values) in order' },
      { name: 'invalid', type: 'json', description: '{text, errors: [{code, message, line, segment}]} when the text is not HL7 v2' },
    ],
  }),
  errors: {
    HL7_INVALID: 'the input is not text, or (with `on_invalid` fail) the text is not HL7 v2; the message names each bad line',
  },
});
