import { authorization } from '@/clinical/fhir/client-auth';
import { clientForConnector, fhirAuthOf } from '@/clinical/fhir/client-connector';
import { get, parseMessage } from '@/clinical/hl7v2';
import { hl7Timestamp, newControlId } from '@/clinical/hl7v2/ack';
import { NodeError } from '@/engine/node-error';
import type { ConnectorHandle } from '@/engine/node-type';
import { poolOf } from '@/engine/lib/postgres';
import { mllpExchange } from '@/server/net/mllp';
import { outbound, outboundFetch } from '@/server/net/outbound';
import type { ServiceContext } from '../context';
import { nodeServices } from '../executions/node-services';
import { connectorHandle } from './handle';
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

function fhirChecks(c: ConnectorHandle): [string, () => Promise<string>][] {
  const auth = fhirAuthOf(c);
  const list: [string, () => Promise<string>][] = [];
  if (auth.kind === 'oauth2') {
    list.push(['auth', async () => {
      await authorization(auth, { fetch: outboundFetch, signal: AbortSignal.timeout(outbound().timeoutMs), cacheKey: `probe:${c.id}:${c.updatedAt}` });
      return `an access token was issued by ${new URL(auth.token_url).host} for client "${auth.client_id}"`;
    }]);
  }
  list.push(['metadata', async () => {
    const capabilities = (await clientForConnector(c, outboundFetch).capabilities()) as { fhirVersion?: string; software?: { name?: string; version?: string } };
    const software = capabilities.software?.name ? ` — ${capabilities.software.name}${capabilities.software.version ? ` ${capabilities.software.version}` : ''}` : '';
    const tls = c.endpoint.startsWith('https:') ? ' over TLS' : '';
    const sent = auth.kind === 'none' || auth.kind === 'oauth2' ? '' : ` (${auth.kind} credentials sent)`;
    return `CapabilityStatement read${tls}: FHIR ${capabilities.fhirVersion ?? 'version not stated'}${software}${sent}`;
  }]);
  return list;
}

function mllpChecks(c: ConnectorHandle, ctx: ServiceContext): [string, () => Promise<string>][] {
  const services = nodeServices(ctx.db, ctx.principal.orgId);
  let socket: Awaited<ReturnType<typeof services.connect>> | undefined;
  const tls = c.config.tls === true;
  return [
    ['connect', async () => {
      socket = await services.connect({ host: String(c.config.host), port: Number(c.config.port), tls });
      return `TCP connection to ${c.endpoint}${tls ? ' with TLS, certificate verified' : ''}`;
    }],
    ['ack', async () => {
      // a real ADT^A08 (update patient information), marked as a test message (MSH-11 T) for the receiver
      const id = newControlId();
      const text = `MSH|^~\\&|CLINFLOW|CLINFLOW|${c.name.replace(/[|^~\\&]/g, ' ')}||${hl7Timestamp(new Date())}||ADT^A08^ADT_A01|${id}|T|2.5.1\rEVN|A08|${hl7Timestamp(new Date())}\rPID|1||CONNECTION-TEST^^^CLINFLOW^MR||TEST^CONNECTION\r`;
      try {
        const answer = await mllpExchange(socket!, text, { encoding: c.config.encoding === 'latin1' ? 'latin1' : c.config.encoding === 'ascii' ? 'ascii' : 'utf8', timeoutMs: Number(c.config.ack_timeout_ms) || 10_000, maxBytes: 1024 * 1024 });
        const ack = parseMessage(answer);
        const code = get(ack, 'MSA-1') ?? '?';
        if (get(ack, 'MSA-2') !== id) throw new Error(`an answer came, but MSA-2 (${get(ack, 'MSA-2') ?? 'empty'}) does not name the test message ${id}`);
        const text3 = get(ack, 'MSA-3');
        if (code !== 'AA' && code !== 'CA') throw new Error(`the receiver answered ${code}${text3 ? `: ${text3}` : ''} to a test ADT^A08 (the connection works; it refused the message)`);
        return `ACK ${code} for the test ADT^A08 ${id}`;
      } finally {
        socket?.destroy();
      }
    }],
  ];
}

function httpChecks(c: ConnectorHandle): [string, () => Promise<string>][] {
  return [['reach', async () => {
    const response = await outboundFetch(c.endpoint, { method: 'GET', headers: httpHeaders(c), redirect: 'manual' });
    await response.body?.cancel();
    const tls = c.endpoint.startsWith('https:') ? ' over TLS' : '';
    if (response.status === 401 || response.status === 403) throw new Error(`the server answered ${response.status}${tls}: the credentials were not accepted`);
    return `GET ${c.endpoint} answered ${response.status}${tls}`;
  }]];
}

/** The headers an `http` connector sends: its fixed headers and its authentication. */
export function httpHeaders(c: ConnectorHandle): Record<string, string> {
  const headers = { ...((c.config.headers as Record<string, string> | undefined) ?? {}) };
  const s = c.credentials as Record<string, string>;
  if (c.config.auth === 'basic') headers.Authorization = `Basic ${Buffer.from(`${s.username}:${s.password}`).toString('base64')}`;
  if (c.config.auth === 'bearer') headers.Authorization = `Bearer ${s.token}`;
  if (c.config.auth === 'api-key') headers[String(c.config.header_name ?? 'X-API-Key')] = s.api_key ?? '';
  return headers;
}

function postgresChecks(c: ConnectorHandle, ctx: ServiceContext): [string, () => Promise<string>][] {
  const sql = poolOf(c, nodeServices(ctx.db, ctx.principal.orgId));
  return [
    ['connect', async () => {
      const [row] = await sql<{ version: string }[]>`select version()`;
      return `connected and signed in: ${row!.version.split(' on ')[0]}`;
    }],
    ['schema', async () => {
      const schema = String(c.config.schema ?? 'public');
      const [row] = await sql<{ n: number }[]>`select count(*)::int as n from information_schema.tables where table_schema = ${schema}`;
      const [exists] = await sql`select 1 from information_schema.schemata where schema_name = ${schema}`;
      if (!exists) throw new Error(`schema "${schema}" does not exist (or this user cannot see it)`);
      return `schema "${schema}" with ${row!.n} table${row!.n === 1 ? '' : 's'}`;
    }],
  ];
}

/**
 * POST /api/connectors/{id}/test: really connects, through the outbound policy, and says what worked: TCP and
 * TLS, authentication, the FHIR CapabilityStatement, the MLLP ACK, the Postgres sign-in and schema.
 */
export async function testConnector(ctx: ServiceContext, id: string) {
  const view = await getConnector(ctx, id);
  const handle = await connectorHandle(ctx.db, ctx.principal.orgId, view.id, view.type);
  const plan =
    view.type === 'fhir' ? fhirChecks(handle) : view.type === 'hl7-mllp' ? mllpChecks(handle, ctx) : view.type === 'http' ? httpChecks(handle) : postgresChecks(handle, ctx);
  const result = await steps(plan.map(([name, run]) => [name, async () => {
    try {
      return await run();
    } catch (e) {
      // node and outbound errors already say what happened, in words
      throw e instanceof NodeError ? new Error(e.message) : e;
    }
  }]));
  return { connector_id: view.id, tested_at: new Date().toISOString(), ...result };
}
