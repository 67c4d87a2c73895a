import net from 'node:net';
import tls from 'node:tls';
import { OutboundError, socketErrorInWords } from '@/shared/outbound-error';
import { resolveHost } from './resolve';
import type { OutboundPolicy } from './policy';

function hostPort(address: string, port: number): string {
  return net.isIPv6(address) ? `[${address}]:${port}` : `${address}:${port}`;
}

/**
 * Opens a TCP connection to an address that was already checked (see resolveHost), within `timeoutMs`.
 * The error says what happened in words (refused, unreachable, no answer in time).
 */
export function tcpConnect(address: string, port: number, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const where = hostPort(address, port);
    const socket = net.connect({ host: address, port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new OutboundError('OUTBOUND_TIMEOUT', `${where} did not accept the connection within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', (e) => {
      clearTimeout(timer);
      socket.destroy();
      reject(new OutboundError('OUTBOUND_FAILED', socketErrorInWords(e, where)));
    });
  });
}

export interface TlsOptions {
  /** The name the certificate must be for (SNI); omitted for an IP address. */
  servername?: string;
  /** Extra trusted certificate authorities (PEM), e.g. a hospital's own CA. */
  ca?: string | string[];
}

/** Runs a TLS handshake over a connected socket, verifying the certificate, within `timeoutMs`. */
export function tlsUpgrade(socket: net.Socket, options: TlsOptions, timeoutMs: number): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const secure = tls.connect({ socket, servername: options.servername && !net.isIP(options.servername) ? options.servername : undefined, ca: options.ca });
    const timer = setTimeout(() => {
      secure.destroy();
      reject(new OutboundError('OUTBOUND_TIMEOUT', `the TLS handshake did not finish within ${timeoutMs} ms`));
    }, timeoutMs);
    secure.once('secureConnect', () => {
      clearTimeout(timer);
      secure.removeAllListeners('error');
      resolve(secure);
    });
    secure.once('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      secure.destroy();
      reject(new OutboundError('OUTBOUND_FAILED', `the TLS handshake failed: ${e.message}${e.code && !e.message.includes(e.code) ? ` (${e.code})` : ''}`));
    });
  });
}

/** What a TLS connection is, in words: protocol, certificate subject, issuer and expiry. */
export function describeTls(socket: tls.TLSSocket): string {
  const cert = socket.getPeerCertificate();
  const subject = cert?.subject?.CN ?? cert?.subjectaltname ?? 'unnamed';
  const issuer = cert?.issuer?.O ?? cert?.issuer?.CN;
  const parts = [`${socket.getProtocol() ?? 'TLS'}`, `certificate for ${subject}`];
  if (issuer) parts.push(`issued by ${issuer}`);
  if (cert?.valid_to) parts.push(`valid until ${new Date(cert.valid_to).toISOString().slice(0, 10)}`);
  return parts.join(', ');
}

export interface ConnectOptions {
  host: string;
  port: number;
  policy: OutboundPolicy;
  timeoutMs: number;
  tls?: TlsOptions | false;
}

/**
 * A socket to host:port under the outbound policy: the host is resolved and checked, and the connection
 * goes to the checked address (TLS verified against the host name when asked). For protocols that are not
 * HTTP (MLLP, Postgres).
 */
export async function connectChecked(opts: ConnectOptions): Promise<net.Socket> {
  const resolved = await resolveHost(opts.host, opts.policy);
  let lastError: unknown;
  for (const { address } of resolved.addresses) {
    try {
      const socket = await tcpConnect(address, opts.port, opts.timeoutMs);
      if (!opts.tls) return socket;
      return await tlsUpgrade(socket, { ...opts.tls, servername: opts.tls.servername ?? resolved.host }, opts.timeoutMs);
    } catch (e) {
      lastError = e;
    }
  }
  throw lastError;
}
