import { fillTemplate } from '../lib/template';
import { smtpError, smtpTransport } from '../lib/smtp';
import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { sendEmail } from './send-email';

export const sendEmailNode = implementNode(sendEmail, {
  async execute(ctx, inputs, config) {
    const data = inputs.data;
    const [to, subject, text] = await Promise.all([config.to, config.subject, config.body].map((t) => fillTemplate(t, data, 'TEMPLATE_FAILED')));
    const recipients = to!
      .split(',')
      .map((r) => r.trim())
      .filter(Boolean);
    if (recipients.length === 0) throw new NodeError('TEMPLATE_FAILED', '`to` gave no recipient for this input.');
    const connector = await ctx.services.connector(config.connector, 'smtp');
    const from = config.from ?? (typeof connector.config.from === 'string' ? connector.config.from : undefined);
    if (!from) throw new NodeError('CONNECTOR_REQUIRED', `Set \`from\`, or a from address on connector "${connector.name}".`);
    const mail = { from, to: recipients, subject: subject!, text: text! };
    const where = `${connector.name} (${String(connector.config.host)}:${String(connector.config.port)})`;
    if (ctx.testMode) {
      ctx.log('info', `test mode: would send "${mail.subject}" to ${recipients.join(', ')} through ${where}`);
      return { outputs: { result: { simulated: true, connector: connector.name, mail } }, simulated: true };
    }
    const transport = smtpTransport(connector, ctx.services);
    try {
      // the idempotency key as Message-ID: a receiving system that dedupes on it drops a retried copy
      const info = await transport.sendMail({ ...mail, messageId: `<${ctx.idempotencyKey.replace(/[^A-Za-z0-9.:-]/g, '-')}@clinflow>` });
      ctx.log('info', `sent "${mail.subject}" to ${recipients.join(', ')} through ${where}`);
      return { outputs: { result: { message_id: info.messageId, accepted: info.accepted.map(String), rejected: info.rejected.map(String) } } };
    } catch (e) {
      throw smtpError(e, where);
    } finally {
      transport.close();
    }
  },
});
