import { z } from 'zod';
import { describeNode } from '../node-descriptor';

const Sender = z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()], { error: 'an IP address or CIDR range, e.g. 10.20.0.0/16' });

const Config = z.object({
  port: z
    .number()
    .int()
    .min(1)
    .max(65535)
    .optional()
    .describe('TCP port to listen on while the pipeline is deployed (required to deploy; 2575 is the usual HL7 port)'),
  encoding: z.enum(['utf8', 'latin1', 'ascii']).default('utf8').describe('Character encoding of the feed (latin1 = ISO-8859-1)'),
  ack_mode: z
    .enum(['stored', 'completed'])
    .default('stored')
    .describe(
      [
        'stored: AA as soon as the message is stored as an execution (it runs on); completed: wait for the run, AA when it',
        "completes, AE when it fails. In both, a sender's runs go one after another, in the order the messages came",
      ].join(' '),
    ),
  order: z
    .enum(['connection', 'patient'])
    .default('connection')
    .describe(
      [
        "connection: each run starts after the run of the sender's message before it; patient: after the one before it",
        "about the same patient (PID-3's first identifier), so different patients' messages run side by side (with ack_mode stored)",
      ].join(' '),
    ),
  allowed_senders: z.array(Sender).max(100).default([]).describe('Addresses or CIDR ranges that may connect; empty: any sender'),
});

/** A short ADT^A01 for test runs from the editor. */
const SAMPLE =
  'MSH|^~\\&|ADTApp|GHH|EHRApp|GHR|20240105083000||ADT^A01^ADT_A01|MSG00001|P|2.5.1\r' +
  'EVN|A01|20240105083000\r' +
  'PID|1||PATID1234^^^GHH^MR||EVERYMAN^ADAM^A||19610615|M\r' +
  'PV1|1|I|2000^2012^01';

export const mllpListenerTrigger = describeNode({
  id: 'mllp-listener-trigger',
  name: 'MLLP listener trigger',
  idBase: 'listener',
  category: 'control',
  description: 'Starts a deployed pipeline for each HL7 v2 message a sending system delivers over MLLP (TCP), and answers its ACK.',
  version: '1.0.0',
  keywords: ['mllp', 'hl7', 'hl7v2', 'v2', 'listener', 'tcp', 'feed', 'interface', 'inbound', 'receive', 'adt', 'ack', 'trigger'],
  side_effect: 'none',
  trigger: {
    events: ['mllp'],
    toInputs: (event) => (event.kind === 'mllp' ? { message: event.message, remote_address: event.remoteAddress, received_at: event.receivedAt } : {}),
    sampleInputs: () => ({ message: SAMPLE, remote_address: '127.0.0.1', received_at: new Date().toISOString() }),
  },
  documentation: [
    'While the pipeline is **deployed** the server listens on `port` for MLLP connections (a sender keeps its',
    'connection open and sends framed messages one after the other); undeploying closes the port. Deploy',
    'fails with a readable error when the port is missing or already in use. A listener comes back by itself',
    'when the server restarts. A changed port or setting takes effect when that version is deployed: on the',
    'same port connections stay open; on another, the old port closes once its messages are acknowledged.',
    '',
    'Each message becomes an execution with the inputs `{"message": <the text as received>, "remote_address":',
    '"10.1.2.3", "received_at": <ISO time>}`, and is acknowledged with an ACK built from its header (MSA-2 is',
    'its MSH-10):',
    '- `ack_mode: stored` (default): `AA` once the execution is stored; it then runs on the queue. Nothing',
    '  acknowledged is ever lost.',
    '- `ack_mode: completed`: the ACK waits for the run: `AA` when it completes, `AE` (with the error in MSA-3',
    '  and an ERR segment) when it fails.',
    '',
    'A message that cannot be stored (not HL7 v2, the pipeline no longer deployed, too many executions',
    'running) is answered `AR` with the reason in MSA-3, and the sender may send it again. Connections from',
    'addresses outside `allowed_senders` (when set) are closed at once.',
    '',
    "**Order.** A sender's messages are stored, acknowledged and run in the order they arrive: each run starts once",
    'the run of the message before it on the connection ended, so an admit and then its discharge reach a FHIR',
    'server or a database in that order. With `stored` the ACK does not wait: the next runs are held until their',
    'turn (by the process that received them, or, should it stop, by the one that takes its work over); with',
    "`completed` the connection's next message is taken in only once the previous one's run ended. The order",
    'carries over when a sender reconnects; with `stored` each execution names the run it started after',
    '(`starts_after`, the run page\'s "Runs after"). Separate connections run side by side; one connection carries one',
    'message per run time (through a five-node feed on the bench, ~110 a second with `stored`, ~85 with',
    '`completed`). A connection whose runs are slower than its messages come has at most 10 open: past that its',
    'next message waits for room, so its ACK comes later (as a busy interface engine answers), and one that waited 2',
    "seconds is answered `AR` (send again later). So a fast sender leaves room for the organization's other runs.",
    'A message answered `AR` for any reason (the organization full, say) takes with it the messages behind it in its',
    'order that had arrived before its `AR` went out (a sender that does not wait for each ACK): they are answered',
    '`AR` too, so none runs before the one the sender sends again.',
    '',
    "**Order per patient** (`order: patient`, with `stored`): each run starts after the run of the sender's message",
    'before it about the same patient (the first identifier of PID-3 with its assigning authority; messages without',
    'a PID segment keep their order among themselves), so one connection runs different patients side by side, as',
    "Mirth's thread assignment by patient does, while each patient's admit still comes before its discharge. A merge",
    '(A40) is ordered with the surviving identifier (PID-3), not the merged one (MRG-1). Changing `order` takes effect',
    'for the messages received after the version is deployed.',
    '',
    'The node fires `message` (the text, for `hl7v2-parse` or anything that reads text), `parsed` (the same',
    'message as an `hl7v2-message`), and `event` (the whole inputs). A test run from the editor gets a sample',
    'ADT^A01 unless its inputs carry a `message`.',
    '',
    '**Example**: `port: 2575` → `hl7v2-parse` → `hl7v2-to-fhir` → `fhir-write` takes an ADT feed into a',
    'FHIR server; point the sending system at this server’s address, port 2575.',
  ].join('\n'),
  config: Config,
  example: { port: 2575, encoding: 'utf8', ack_mode: 'stored', order: 'connection', allowed_senders: ['10.20.0.0/16'] },
  plan: {
    role: 'trigger',
    stage: 'trigger',
    search: false,
    starts: () => [
      { port: 'parsed', flow: { type: 'hl7v2-message', kind: 'hl7' } },
      { port: 'message', flow: { type: 'text', kind: 'hl7' } },
    ],
    configure: (a) => {
      if (a.port) {
        a.config.port = a.port;
        a.filled.push(`port ${a.port}`);
      }
    },
    fallbacks: [{ field: 'port', value: 2575, why: 'the request names none; 2575 (the usual HL7 port) was set' }],
  },
  ports: () => ({
    inputs: [],
    outputs: [
      { name: 'message', type: 'text', description: 'The HL7 v2 message as received' },
      { name: 'parsed', type: 'hl7v2-message', description: 'The message parsed' },
      { name: 'event', type: 'trigger-event', description: '{message, remote_address, received_at}' },
    ],
  }),
  ui: {
    order: ['port', 'ack_mode', 'order', 'encoding', 'allowed_senders'],
    fields: {
      port: { title: 'Port', placeholder: '2575' },
      ack_mode: { title: 'ACK mode' },
      order: { title: 'Keep the order of' },
      allowed_senders: { title: 'Allowed senders', widget: 'json' },
    },
  },
  errors: {
    HL7_INVALID: 'a test run’s `message` is not one HL7 v2 message',
    MLLP_PORT_REQUIRED: 'deploying without a `port` to listen on',
  },
});
