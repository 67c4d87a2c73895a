import { z } from 'zod';
import { compileJsonata } from '../lib/jsonata';
import { templateExpressions } from '../lib/template';
import { describeNode } from '../node-descriptor';

/** A template field: its `{{ … }}` expressions are checked when the pipeline is saved. */
const template = (max: number, description: string) =>
  z
    .string()
    .max(max)
    .superRefine((text, ctx) => {
      for (const e of templateExpressions(text)) {
        try {
          compileJsonata(e);
        } catch (err) {
          ctx.addIssue({ code: 'custom', message: `{{ ${e} }}: ${(err as Error).message}` });
        }
      }
    })
    .describe(description);

const Config = z.object({
  connector: z.string().min(1, 'an smtp connector is required').max(200).describe('The `smtp` connector of the mail server (host, port, TLS, sign-in)'),
  from: z.string().max(320).optional().describe('Sender address, e.g. "Clinflow <alerts@hospital.org>" (default: the connector’s `from`)'),
  to: template(2000, 'Recipients, comma-separated (may use {{ … }})').pipe(z.string().min(1, 'at least one recipient is required')),
  subject: template(1000, 'Subject line; {{ expression }} inserts a value of the input, e.g. {{ pipeline.name }} failed'),
  body: template(100_000, 'Plain-text body; {{ expression }} inserts a value of the input (JSONata, e.g. {{ error.message }})'),
});

export const sendEmail = describeNode({
  id: 'send-email',
  name: 'Send email',
  idBase: 'email',
  category: 'output',
  description: 'Sends an email through an SMTP connector, its subject and body filled in from the input.',
  version: '1.0.0',
  keywords: ['email', 'mail', 'smtp', 'alert', 'notify', 'notification', 'on-call', 'send'],
  side_effect: 'write',
  documentation: [
    'Sends one plain-text email through an `smtp` connector (Settings → Connectors: host:port, TLS or STARTTLS,',
    'user name and password kept encrypted). The connection goes through the outbound policy like any other',
    'outbound call: a mail server on a private address needs OUTBOUND_ALLOW.',
    '',
    '`to`, `subject` and `body` are templates: each `{{ expression }}` is a JSONata expression over the input',
    '(`data`), so in an error pipeline `{{ pipeline.name }} failed: {{ error.code }}` and',
    '`{{ error.message }} — see {{ execution.url }}` say what went wrong and where.',
    '',
    '`result` is `{"message_id", "accepted": [...], "rejected": [...]}`.',
    '',
    '**Test mode**: nothing is sent; the node returns the mail it would have sent and is marked `simulated`.',
  ].join('\n'),
  config: Config,
  example: {
    connector: 'Hospital mail',
    from: 'Clinflow <alerts@hospital.org>',
    to: 'integration-team@hospital.org',
    subject: '{{ pipeline.name }} failed: {{ error.code }}',
    body: '{{ error.message }}\nNode: {{ node.id }} (attempt {{ attempt }})\nRun: {{ execution.url }}\nHeld back since the last alert: {{ held_back }}',
  },
  ui: {
    order: ['connector', 'from', 'to', 'subject', 'body'],
    fields: { connector: { widget: 'connector', connectorType: 'smtp' }, body: { widget: 'textarea' } },
  },
  ports: () => ({
    inputs: [{ name: 'data', type: 'json', description: 'What the templates read (an error-event in an error pipeline)' }],
    outputs: [{ name: 'result', type: 'json', description: '{message_id, accepted, rejected}' }],
  }),
  errors: {
    CONNECTOR_REQUIRED: 'the connector has no host and port',
    TEMPLATE_FAILED: 'a {{ … }} expression failed on the input',
    SMTP_AUTH_FAILED: 'the mail server refused the connector’s user name and password',
    SMTP_FAILED: 'the mail server could not be reached or refused the mail (its answer is in the message)',
  },
});
