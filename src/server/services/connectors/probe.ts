import { authorization } from '@/clinical/fhir/client-auth';
import { clientForConnector, fhirAuthOf } from '@/clinical/fhir/client-connector';
import type { TLSSocket } from 'node:tls';
import { formatHl7DateTime, Hl7Message } from '@medplum/core';
import { newControlId } from '@/clinical/hl7v2/ack';
import { NodeError } from '@/engine/node-error';
import type { ConnectorHandle } from '@/engine/node-type';
import { connectorHeaders } from '@/engine/lib/http-connector';
import { poolOf } from '@/engine/lib/postgres';
import { smtpError, smtpTransport } from '@/engine/lib/smtp';
import { logger } from '@/server/logger';
import { describeTls } from '@/server/outbound/connect';
import { mllpExchange } from '@/clinical/hl7v2/mllp';
import { outbound, outboundFetch } from '@/server/outbound/outbound';
import type { ServiceContext } from '../context';
import { readConnectorHandle } from './handle';
import { getConnector } from './connectors';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  ms: number;
}

/** What went wrong: fetch's own "fetch failed" carries the outbound policy's or the network's reason as its cause. */
function inWords(e: unknown): string {
  const cause = (e as { cause?: unknown })?.cause;
  if (e instanceof TypeError && cause instanceof Error) return cause.message;
  return e instanceof Error ? e.message : String(e);
}

/** Runs the steps in order, timing each; the first that fails ends the test (later ones could not work). */
async function steps(list: [name: string, run: () => Promise<string>][]): Promise<{ ok: boolean; checks: Check[] }> {
  const checks: Check[] = [];
  for (const [name, run] of list) {
    const started = Date.now();
    try {
      checks.push({ name, ok: true, detail: await run(), ms: Date.now() - started });
    } catch (e) {
      checks.push({ name, ok: false, detail: inWords(e), ms: Date.now() - started });
      return { ok: false, checks };
    }
  }
  return { ok: true, checks };
}

function fhirChecks(c: ConnectorHandle, ctx: ServiceContext): [string, () => Promise<string>][] {
  const auth = fhirAuthOf(c);
  const list: [string, () => Promise<string>][] = [connectStep(c, ctx)];
  if (auth.kind === 'oauth2') {
    list.push([
      'auth',
      async () => {
        await authorization(auth, { fetch: outboundFetch, signal: AbortSignal.timeout(outbound().timeoutMs), cacheKey: `probe:${c.id}:${c.updatedAt}` });
        return `an access token was issued by ${new URL(auth.token_url).host} for client "${auth.client_id}"`;
      },
    ]);
  }
  list.push([
    'metadata',
    async () => {
      const capabilities = (await clientForConnector(c, outboundFetch).capabilities()) as {
        fhirVersion?: string;
        software?: { name?: string; version?: string };
      };
      const software = capabilities.software?.name
        ? ` — ${capabilities.software.name}${capabilities.software.version ? ` ${capabilities.software.version}` : ''}`
        : '';
      const tls = c.endpoint.startsWith('https:') ? ' over TLS' : '';
      const sent = auth.kind === 'none' || auth.kind === 'oauth2' ? '' : ` (${auth.kind} credentials sent)`;
      return `CapabilityStatement read${tls}: FHIR ${capabilities.fhirVersion ?? 'version not stated'}${software}${sent}`;
    },
  ]);
  return list;
}

function mllpChecks(c: ConnectorHandle, ctx: ServiceContext): [string, () => Promise<string>][] {
  const services = ctx.host.nodeServices(ctx.db, ctx.principal.orgId);
  let socket: Awaited<ReturnType<typeof services.connect>> | undefined;
  const tls = c.config.tls === true;
  return [
    [
      'connect',
      async () => {
        socket = await services.connect({ host: String(c.config.host), port: Number(c.config.port), tls });
        return `TCP connection to ${c.endpoint}${tls ? ` with TLS: ${describeTls(socket as TLSSocket)}, certificate verified` : ''}`;
      },
    ],
    [
      'ack',
      async () => {
        // a real minimal ADT^A01, marked as a test message (MSH-11 T) so the receiver does not file it
        const id = newControlId();
        const now = formatHl7DateTime(new Date());
        const receiver = c.name.replace(/[|^~\\&\r\n]/g, ' ');
        const message = Hl7Message.parse(
          [
            `MSH|^~\\&|CLINFLOW|CLINFLOW|${receiver}||${now}||ADT^A01^ADT_A01|${id}|T|2.5.1`,
            `EVN|A01|${now}`,
            'PID|1||CONNECTION-TEST^^^CLINFLOW^MR||TEST^CONNECTION',
            'PV1|1|N',
          ].join('\r'),
        );
        const encoding = c.config.encoding === 'latin1' ? 'latin1' : c.config.encoding === 'ascii' ? 'ascii' : 'utf8';
        try {
          const answer = await mllpExchange(socket!, message.toString(), {
            encoding,
            timeoutMs: Number(c.config.ack_timeout_ms) || 10_000,
            maxBytes: 1024 * 1024,
          });
          const msa = Hl7Message.parse(answer).getSegment('MSA');
          if (!msa) throw new Error('an answer came, but without an MSA segment: it is not an HL7 ACK');
          const code = msa.getField(1).toString() || '?';
          const acked = msa.getField(2).toString();
          if (acked !== id) throw new Error(`an answer came, but MSA-2 (${acked || 'empty'}) does not name the test message ${id}`);
          const text3 = msa.getField(3).toString();
          if (code !== 'AA' && code !== 'CA')
            throw new Error(`the receiver answered ${code}${text3 ? `: ${text3}` : ''} to a test ADT^A01 (the connection works; it refused the message)`);
          return `ACK ${code} for the test ADT^A01 ${id}${text3 ? `: ${text3}` : ''}`;
        } finally {
          socket?.destroy();
        }
      },
    ],
  ];
}

/**
 * DNS, TCP and (for https) TLS to an HTTP endpoint, under the outbound policy: what fails here is the network or
 * the policy, not the server's answer. The connection is closed again; the next steps make their own calls.
 */
function connectStep(c: ConnectorHandle, ctx: ServiceContext): [string, () => Promise<string>] {
  return [
    'connect',
    async () => {
      const url = new URL(c.endpoint);
      const tls = url.protocol === 'https:';
      const host = url.hostname.replace(/^\[|\]$/g, '');
      const port = Number(url.port) || (tls ? 443 : 80);
      const socket = await ctx.host.nodeServices(ctx.db, ctx.principal.orgId).connect({ host, port, tls });
      try {
        const address = socket.remoteAddress ? ` (${socket.remoteAddress})` : '';
        return `TCP connection to ${url.host}${address}${tls ? ` with TLS: ${describeTls(socket as TLSSocket)}, certificate verified` : ''}`;
      } finally {
        socket.destroy();
      }
    },
  ];
}

function httpChecks(c: ConnectorHandle, ctx: ServiceContext): [string, () => Promise<string>][] {
  return [
    connectStep(c, ctx),
    [
      'reach',
      async () => {
        const response = await outboundFetch(c.endpoint, { method: 'GET', headers: connectorHeaders(c).headers, redirect: 'manual' });
        await response.body?.cancel();
        const tls = c.endpoint.startsWith('https:') ? ' over TLS' : '';
        if (response.status === 401 || response.status === 403)
          throw new Error(`the server answered ${response.status}${tls}: the credentials were not accepted`);
        return `GET ${c.endpoint} answered ${response.status}${tls}`;
      },
    ],
  ];
}

/** Connects and signs in (nodemailer's verify: greeting, STARTTLS or TLS, AUTH) without sending a mail. */
function smtpChecks(c: ConnectorHandle, ctx: ServiceContext): [string, () => Promise<string>][] {
  return [
    [
      'sign in',
      async () => {
        const transport = smtpTransport(c, ctx.host.nodeServices(ctx.db, ctx.principal.orgId), 10_000);
        try {
          await transport.verify();
        } catch (e) {
          throw smtpError(e, `${String(c.config.host)}:${String(c.config.port)}`);
        } finally {
          transport.close();
        }
        const signedIn = c.credentials.username ? `, signed in as ${String(c.credentials.username)}` : '';
        return `the mail server at ${c.endpoint} answered (${String(c.config.security ?? 'starttls')})${signedIn}`;
      },
    ],
  ];
}

function postgresChecks(c: ConnectorHandle, ctx: ServiceContext): [string, () => Promise<string>][] {
  const sql = poolOf(c, ctx.host.nodeServices(ctx.db, ctx.principal.orgId));
  return [
    [
      'connect',
      async () => {
        const [row] = await sql<{ version: string }[]>`select version()`;
        return `connected and signed in: ${row!.version.split(' on ')[0]}`;
      },
    ],
    [
      'schema',
      async () => {
        const schema = String(c.config.schema ?? 'public');
        const [row] = await sql<{ n: number }[]>`select count(*)::int as n from information_schema.tables where table_schema = ${schema}`;
        const [exists] = await sql`select 1 from information_schema.schemata where schema_name = ${schema}`;
        if (!exists) throw new Error(`schema "${schema}" does not exist (or this user cannot see it)`);
        return `schema "${schema}" with ${row!.n} table${row!.n === 1 ? '' : 's'}`;
      },
    ],
  ];
}

/**
 * POST /api/connectors/{id}/test: really connects, through the outbound policy, and says what worked: TCP and
 * TLS, authentication, the FHIR CapabilityStatement, the MLLP ACK, the Postgres sign-in and schema.
 */
export async function testConnector(ctx: ServiceContext, id: string) {
  const view = await getConnector(ctx, id);
  const handle = await readConnectorHandle(ctx.db, ctx.principal.orgId, view.id, view.type);
  const plan =
    view.type === 'fhir'
      ? fhirChecks(handle, ctx)
      : view.type === 'hl7-mllp'
        ? mllpChecks(handle, ctx)
        : view.type === 'http'
          ? httpChecks(handle, ctx)
          : view.type === 'smtp'
            ? smtpChecks(handle, ctx)
            : postgresChecks(handle, ctx);
  const result = await steps(
    plan.map(([name, run]) => [
      name,
      async () => {
        try {
          return await run();
        } catch (e) {
          // node and outbound errors already say what happened, in words
          throw e instanceof NodeError ? new Error(e.message) : e;
        }
      },
    ]),
  );
  if (!result.ok) {
    // for whoever runs the server: which connector of which organization failed, and why (the same words as the answer)
    const failed = result.checks.at(-1)!;
    logger.warn(`connector test failed: "${view.name}" (${view.type}) at ${failed.name}`, {
      orgId: ctx.principal.orgId,
      connectorId: view.id,
      detail: failed.detail,
    });
  }
  return { connector_id: view.id, tested_at: new Date().toISOString(), ...result };
}
