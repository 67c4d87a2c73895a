import nodemailer from 'nodemailer';
import type { Socket } from 'node:net';
import { NodeError } from '../node-error';
import type { ConnectorHandle, NodeServices } from '../node-type';

/** How an `smtp` connector secures its connection: implicit TLS (port 465), STARTTLS (587, 25) or none (a local relay). */
export type SmtpSecurity = 'tls' | 'starttls' | 'none';

/**
 * A nodemailer transport for an `smtp` connector. Its TCP connection comes from `services.connect`, so the outbound
 * policy (OUTBOUND_ALLOW, the time limit) applies to the mail server as to any other outbound call; nodemailer speaks
 * SMTP over it (STARTTLS upgrades it in place, verifying the certificate against the connector's host).
 */
export function smtpTransport(connector: ConnectorHandle, services: Pick<NodeServices, 'connect'>, timeoutMs?: number) {
  const host = String(connector.config.host ?? '');
  const port = Number(connector.config.port);
  if (!host || !Number.isInteger(port)) throw new NodeError('CONNECTOR_REQUIRED', `Connector "${connector.name}" has no host and port.`);
  const security = (connector.config.security ?? 'starttls') as SmtpSecurity;
  const user = connector.credentials.username;
  const pass = connector.credentials.password;
  return nodemailer.createTransport({
    host,
    port,
    secure: false,
    requireTLS: security === 'starttls',
    ignoreTLS: security === 'none',
    ...(typeof user === 'string' && typeof pass === 'string' ? { auth: { user, pass } } : {}),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    getSocket: (_options, callback) => {
      services.connect({ host, port, tls: security === 'tls', timeoutMs }).then(
        (socket: Socket) => callback(null, { connection: socket, secured: security === 'tls' }),
        (e: unknown) => callback(e as Error),
      );
    },
  });
}

/** The mail server's words for a failure, as a NodeError the run shows (nodemailer's codes: EAUTH, EENVELOPE, ETIMEDOUT…). */
export function smtpError(e: unknown, where: string): NodeError {
  if (e instanceof NodeError) return e;
  const err = e as { code?: string; response?: string; message?: string };
  if (err.code === 'EAUTH') return new NodeError('SMTP_AUTH_FAILED', `${where} refused the user name and password: ${err.response ?? err.message}`);
  return new NodeError('SMTP_FAILED', `Sending through ${where} failed: ${err.response ?? err.message ?? String(e)}`);
}
