import type { Resource } from '@medplum/fhirtypes';
import type { FhirClient } from './client';
import { answerError, FhirError, shown } from './client-errors';

/** FHIR Bulk Data Access (v2) `$export`: https://hl7.org/fhir/uv/bulkdata/export.html */

export type ExportLevel = 'system' | 'group' | 'patient';

export interface ExportRequest {
  level: ExportLevel;
  /** For `group`: the Group's id. */
  groupId?: string;
  /** `_type`: resource types to export (all when empty). */
  types?: string[];
  /** `_since`: only resources changed after this instant. */
  since?: string;
}

export interface ExportFile {
  type: string;
  url: string;
  count?: number;
}

/** The completed export's manifest. */
export interface ExportManifest {
  transactionTime: string;
  request: string;
  requiresAccessToken: boolean;
  output: ExportFile[];
  error: ExportFile[];
}

export interface WaitOptions {
  signal?: AbortSignal;
  /** Give up (and cancel the export on the server) after this long in all. */
  maxWaitMs: number;
  /** Bounds on the pause between status polls, whatever Retry-After says (default 1 s … 60 s). */
  minPollMs?: number;
  maxPollMs?: number;
  /** Told of each in-progress answer (`X-Progress`, e.g. "50% complete"). */
  onProgress?(progress: string | undefined): void;
}

/** Kicks off an export (`Prefer: respond-async`) and returns its status URL (the 202's Content-Location). */
export async function kickOffExport(client: FhirClient, request: ExportRequest, options: { signal?: AbortSignal } = {}): Promise<string> {
  const params = new URLSearchParams();
  if (request.types?.length) params.set('_type', request.types.join(','));
  if (request.since) params.set('_since', request.since);
  const query = params.size ? `?${params.toString()}` : '';
  const path = exportPath(request);
  const answer = await client.exchange('GET', `${path}${query}`, undefined, { Accept: 'application/fhir+json', Prefer: 'respond-async' }, options);
  const target = `the export kick-off ${shown(client.url(path))}`;
  if (answer.status !== 202) {
    if (answer.status >= 200 && answer.status < 300)
      throw new FhirError('FHIR_BAD_RESPONSE', `${target} answered ${answer.status} instead of 202 Accepted: the server does not run exports asynchronously`);
    throw answerError(target, answer.status, answer.body);
  }
  const location = answer.headers.get('content-location');
  if (!location) throw new FhirError('FHIR_BAD_RESPONSE', `${target} answered 202 without a Content-Location (the status URL)`);
  const url = new URL(location, client.url(path)).toString();
  client.sameServer(url, 'an export status URL');
  return url;
}

function exportPath(request: ExportRequest): string {
  switch (request.level) {
    case 'system':
      return '$export';
    case 'patient':
      return 'Patient/$export';
    case 'group':
      if (!request.groupId) throw new FhirError('FHIR_INVALID_REQUEST', 'a group export needs the Group id');
      return `Group/${encodeURIComponent(request.groupId)}/$export`;
  }
}

/**
 * Polls the status URL until the manifest is ready, pausing as Retry-After says (within bounds). Past
 * `maxWaitMs` (or when aborted) it asks the server to cancel the export (DELETE) and fails.
 */
export async function waitForExport(client: FhirClient, statusUrl: string, options: WaitOptions): Promise<ExportManifest> {
  const deadline = Date.now() + options.maxWaitMs;
  const minPoll = options.minPollMs ?? 1000;
  const maxPoll = options.maxPollMs ?? 60_000;
  try {
    for (;;) {
      const answer = await client.exchange('GET', statusUrl, undefined, { Accept: 'application/json' }, { signal: options.signal });
      if (answer.status === 200) return manifestOf(answer.body, statusUrl);
      if (answer.status !== 202) throw exportFailure(answer.status, answer.body, statusUrl);
      options.onProgress?.(answer.headers.get('x-progress') ?? undefined);
      const pause = Math.min(Math.max(retryAfterMs(answer.headers.get('retry-after')) ?? minPoll, minPoll), maxPoll);
      if (Date.now() + pause > deadline)
        throw new FhirError('FHIR_EXPORT_TIMEOUT', `the export was not ready within ${Math.round(options.maxWaitMs / 1000)} s; it was cancelled on the server`);
      await sleep(pause, options.signal);
    }
  } catch (e) {
    if (!(e instanceof FhirError) || e.code === 'FHIR_EXPORT_TIMEOUT' || e.code === 'FHIR_CANCELLED') await cancelExport(client, statusUrl);
    throw e;
  }
}

/** Asks the server to stop and forget an export (best effort: a failure here changes nothing for the caller). */
export async function cancelExport(client: FhirClient, statusUrl: string): Promise<void> {
  await client.exchange('DELETE', statusUrl, undefined, {}, { timeoutMs: 10_000 }).catch(() => undefined);
}

function exportFailure(status: number, body: unknown, statusUrl: string): FhirError {
  const error = answerError(`the export status ${shown(statusUrl)}`, status, body);
  return new FhirError(error.code === 'FHIR_AUTH_FAILED' ? error.code : 'FHIR_EXPORT_FAILED', error.message, status, error.outcome);
}

function manifestOf(body: unknown, statusUrl: string): ExportManifest {
  const m = body as Partial<ExportManifest> | undefined;
  if (!m || typeof m !== 'object' || !Array.isArray(m.output))
    throw new FhirError('FHIR_BAD_RESPONSE', `the export status ${shown(statusUrl)} answered 200 without a manifest (no "output" list)`);
  return {
    transactionTime: String(m.transactionTime ?? ''),
    request: String(m.request ?? ''),
    requiresAccessToken: m.requiresAccessToken === true,
    output: m.output.filter(isFile),
    error: Array.isArray(m.error) ? m.error.filter(isFile) : [],
  };
}

function isFile(f: unknown): f is ExportFile {
  return typeof f === 'object' && f !== null && typeof (f as ExportFile).type === 'string' && typeof (f as ExportFile).url === 'string';
}

/** Retry-After as delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterMs(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new FhirError('FHIR_CANCELLED', 'the export wait was aborted'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new FhirError('FHIR_CANCELLED', 'the export wait was aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Streams one NDJSON output file resource by resource as its bytes arrive (a file is never held whole).
 * The access token is sent when the manifest requires it (and only to the FHIR server's own host).
 */
export async function* readExportFile(
  client: FhirClient,
  file: ExportFile,
  manifest: ExportManifest,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): AsyncGenerator<Resource> {
  const response = await client.open(file.url, { Accept: 'application/fhir+ndjson' }, { ...options, authenticate: manifest.requiresAccessToken });
  if (!response.ok || !response.body) {
    const text = await response.text().catch(() => '');
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // plain text error
    }
    throw exportFailure(response.status, body, file.url);
  }
  let buffer = '';
  let line = 0;
  const decoder = new TextDecoder();
  try {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const text = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        line++;
        const resource = parseLine(text, file, line);
        if (resource) yield resource;
      }
    }
  } catch (e) {
    if (e instanceof FhirError) throw e;
    if (options.signal?.aborted) throw new FhirError('FHIR_CANCELLED', `reading ${shown(file.url)} was aborted`);
    if (e instanceof Error && e.name === 'TimeoutError')
      throw new FhirError('FHIR_TIMEOUT', `reading ${shown(file.url)} did not finish within the time limit (${line} lines read)`);
    throw new FhirError('FHIR_UNREACHABLE', `reading ${shown(file.url)} failed after ${line} lines: ${e instanceof Error ? e.message : String(e)}`);
  }
  buffer += decoder.decode();
  const last = parseLine(buffer, file, line + 1);
  if (last) yield last;
}

function parseLine(text: string, file: ExportFile, line: number): Resource | undefined {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new FhirError('FHIR_BAD_RESPONSE', `line ${line} of the ${file.type} file ${shown(file.url)} is not JSON`);
  }
  if (typeof value !== 'object' || value === null || typeof (value as Resource).resourceType !== 'string') {
    throw new FhirError('FHIR_BAD_RESPONSE', `line ${line} of the ${file.type} file ${shown(file.url)} is not a FHIR resource`);
  }
  return value as Resource;
}
