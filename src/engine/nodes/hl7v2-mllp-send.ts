import { z } from 'zod';
import { describeNode } from '../node-descriptor';
import { anyOf } from '../node-plan';

const Config = z.object({
  connector: z.string().max(200).default('').describe('The hl7-mllp connector (id or name) of the receiving system'),
  ack_timeout_ms: z
    .number()
    .int()
    .min(100)
    .max(300_000)
    .optional()
    .describe('How long to wait for the ACK, in milliseconds (default: the connector’s ACK wait, else 30000)'),
});

export const hl7v2MllpSend = describeNode({
  id: 'hl7v2-mllp-send',
  name: 'HL7 v2 MLLP send',
  idBase: 'send',
  category: 'healthcare',
  description: 'Sends an HL7 v2 message to a receiving system over MLLP (TCP) and waits for its ACK; fails on AE/AR.',
  version: '1.0.0',
  keywords: ['hl7', 'hl7v2', 'v2', 'mllp', 'send', 'tcp', 'ack', 'nak', 'interface', 'adt', 'oru', 'outbound'],
  side_effect: 'write',
  documentation: [
    'Sends `message` to the system of an `hl7-mllp` connector (its host, port, TLS and encoding) in an MLLP',
    'frame, then waits for the acknowledgment. The message may be an `hl7v2-message` value (from',
    '`hl7v2-parse`, or built by a JSONata or code node) or HL7 v2 text; either way it is checked and sent with',
    'CR segment ends.',
    '',
    'An accepting ACK (MSA-1 `AA` or `CA`) comes out of `ack`, parsed. A negative one (`AE` error, `AR`',
    'reject, or `CE`/`CR`) fails the node with `HL7_NAK`, whose message carries MSA-3 and the ERR segment’s',
    'text, e.g. `HL7 NAK from 10.1.2.3:2575: AE: Unknown patient (ERR: 204^Unknown key identifier)`.',
    'No ACK within `ack_timeout_ms` fails with `HL7_ACK_TIMEOUT`: the receiver may have the message, so a',
    'retry can deliver it twice (receivers usually drop a repeated MSH-10, which stays the same on retry).',
    '',
    'The connection follows the outbound policy: internal addresses need OUTBOUND_ALLOW.',
    '',
    '**Test mode**: nothing is sent. `ack` is `{"simulated": true, "connector": <name>, "endpoint":',
    '"host:port", "message": <the text that would be sent>}`.',
    '',
    '**Example**: `hl7v2-parse` → `hl7v2-deidentify` → `hl7v2-mllp-send` with `connector: "lab-feed"`',
    'forwards a de-identified feed to the lab system.',
  ].join('\n'),
  config: Config,
  example: { connector: 'lab-feed', ack_timeout_ms: 10000 },
  plan: {
    madeFor: 'hl7',
    edit: { cue: /\bmllp\b|\blis\b|\blab system\b|\binterface engine\b/, names: /\bmllp\b|\blis\b|\blab system\b/ },
    role: 'sink',
    stage: 'sink',
    input: 'message',
    output: 'ack',
    takes: (f) => f.kind === 'hl7',
    cue: anyOf(
      /\b(send|forward|relay|route|deliver|push|transmit|pass)\w*[^.]{0,60}?\b(mllp|interface engine|downstream|lis|ris|lab system)\b/,
      /\bover mllp\b|\bvia mllp\b/,
    ),
    // a listener's messages are sent on only when the request says where
    dropWhen: ({ lower, trigger }) =>
      trigger === 'mllp' &&
      !/\b(send|forward|relay|deliver|push|transmit|pass)\w*\b[^.]{0,80}\bto\b[^.]{0,40}\b(mllp|lis|ris|interface|system|engine|downstream)\b/.test(lower),
    takesRaw: true,
  },
  ports: () => ({
    inputs: [{ name: 'message', type: 'any', description: 'The message: an hl7v2-message value or HL7 v2 text' }],
    outputs: [{ name: 'ack', type: 'hl7v2-message', description: 'The receiver’s ACK (MSA-1 AA or CA)' }],
  }),
  ui: {
    order: ['connector', 'ack_timeout_ms'],
    fields: { connector: { title: 'Connector', widget: 'connector', connectorType: 'hl7-mllp' }, ack_timeout_ms: { title: 'ACK timeout (ms)' } },
  },
  errors: {
    CONNECTOR_REQUIRED: 'no `connector` is set: pick an hl7-mllp connector',
    CONNECTOR_NOT_FOUND: 'the organization has no connector of that id or name',
    CONNECTOR_TYPE_MISMATCH: 'the connector is not an hl7-mllp connector',
    HL7_INVALID: 'the input is not an HL7 v2 message (or the answer is not one)',
    HL7_NAK: 'the receiver answered AE, AR, CE or CR; the message has MSA-3 and the ERR text',
    HL7_ACK_TIMEOUT: 'no ACK came within the time limit',
    OUTBOUND_REFUSED: 'the receiver’s address is internal and OUTBOUND_ALLOW does not allow it',
    OUTBOUND_TIMEOUT: 'the receiver did not accept the connection in time',
    OUTBOUND_FAILED: 'the receiver could not be reached or closed the connection without answering',
  },
});
