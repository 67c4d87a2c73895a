import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectChecked } from '@/server/outbound/connect';
import { OutboundPolicy } from '@/server/outbound/policy';
import { OutboundError } from '@/shared/outbound-error';
import { SAMPLE_ERROR_EVENT } from '@/shared/error-event';
import { NodeError } from '../node-error';
import type { ConnectorHandle, NodeServices } from '../node-type';
import { runNode, testContext, testServices } from '../../../tests/support/engine/node-context';
import { startSmtp, type LocalSmtp } from '../../../tests/support/smtp';
import { sendEmailNode as sendEmail } from './send-email.execute';

/*
 * error-event ──data──▶ send-email (smtp connector → a real SMTP server on loopback, through the outbound policy)
 */
const config = {
  connector: 'Hospital mail',
  to: 'oncall@hospital.test, {{ "team@hospital.test" }}',
  subject: '{{ pipeline.name }} failed: {{ error.code }}',
  body: '{{ error.message }}\nRun: {{ execution.url }}\nHeld back: {{ held_back }}',
};

let smtp: LocalSmtp;
beforeAll(async () => {
  smtp = await startSmtp({ user: 'clinflow', pass: 'mail-secret-1' });
});
afterAll(() => smtp.close());

function services(allow: string[], password = 'mail-secret-1'): NodeServices {
  const handle: ConnectorHandle = {
    id: 'c1',
    name: 'Hospital mail',
    type: 'smtp',
    endpoint: `127.0.0.1:${smtp.port}`,
    config: { host: '127.0.0.1', port: smtp.port, security: 'none', from: 'Clinflow <alerts@hospital.test>' },
    credentials: { username: 'clinflow', password },
    updatedAt: '2026-01-01T00:00:00Z',
  };
  const policy = OutboundPolicy.fromEntries(allow);
  return testServices({
    connector: async () => handle,
    connect: async ({ host, port }) => {
      try {
        return await connectChecked({ host, port, policy, timeoutMs: 2000 });
      } catch (e) {
        throw e instanceof OutboundError ? new NodeError(e.code, e.message) : e;
      }
    },
  });
}

describe('send-email', () => {
  it('sends the filled-in mail to a real SMTP server, signed in with the connector’s credentials', async () => {
    const before = smtp.mails.length;
    const r = await runNode(sendEmail, config, { data: SAMPLE_ERROR_EVENT }, testContext({ services: services(['loopback']) }));
    expect((r.outputs.result as { accepted: string[] }).accepted).toEqual(['oncall@hospital.test', 'team@hospital.test']);
    await smtp.waitFor(before + 1);
    const mail = smtp.mails[before]!;
    expect(mail.subject).toBe('ADT feed failed: FHIR_WRITE_FAILED');
    expect(mail.text).toContain('The FHIR server answered 503 Service Unavailable');
    expect(mail.text).toContain('Held back: 0');
    expect(mail.from?.text).toContain('alerts@hospital.test');
    expect(mail.envelopeTo).toEqual(['oncall@hospital.test', 'team@hospital.test']);
    expect(mail.user).toBe('clinflow');
  });

  it('is refused by the outbound policy when the mail server’s address is not allowed', async () => {
    const before = smtp.mails.length;
    await expect(runNode(sendEmail, config, { data: SAMPLE_ERROR_EVENT }, testContext({ services: services([]) }))).rejects.toMatchObject({
      code: 'OUTBOUND_REFUSED',
    });
    expect(smtp.mails.length).toBe(before);
  });

  it('says when the server refuses the password', async () => {
    await expect(runNode(sendEmail, config, { data: SAMPLE_ERROR_EVENT }, testContext({ services: services(['loopback'], 'wrong') }))).rejects.toMatchObject({
      code: 'SMTP_AUTH_FAILED',
    });
  });

  it('sends nothing in test mode and shows the mail it would send', async () => {
    const before = smtp.mails.length;
    const r = await runNode(sendEmail, config, { data: SAMPLE_ERROR_EVENT }, testContext({ testMode: true, services: services(['loopback']) }));
    expect(r.simulated).toBe(true);
    expect(r.outputs.result).toMatchObject({ simulated: true, mail: { subject: 'ADT feed failed: FHIR_WRITE_FAILED' } });
    expect(smtp.mails.length).toBe(before);
  });

  it('refuses a template that does not compile when the config is parsed', () => {
    const parsed = sendEmail.config.safeParse({ ...config, subject: '{{ error.( }}' });
    expect(parsed.success).toBe(false);
  });

  it('validates its example config', () => {
    expect(sendEmail.config.safeParse(sendEmail.example).success).toBe(true);
  });
});
