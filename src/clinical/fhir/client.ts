import type { Bundle, BundleEntry, BundleLink, OperationOutcome, Resource } from '@medplum/fhirtypes';
import { authorization, causeOf, defaultCacheKey, type FhirAuth, forgetToken } from './client-auth';
import { Deadline } from '@/shared/deadline';
import type { HttpExchange } from '@/shared/http-exchange';
import { answerError, FhirError, isOperationOutcome, shown } from './client-errors';

export type { FhirAuth } from './client-auth';
export { FhirError, type FhirErrorCode, outcomeText } from './client-errors';

export interface FhirClientOptions {
  /** The server's base URL, e.g. `https://fhir.example.org/r4` */
  baseUrl: string;
  auth: FhirAuth;
  /** Every request goes through it (nodes pass the outbound-policy fetch). */
  fetch: typeof fetch;
  /**
   * When given, exchanges whose body is read whole (reads, searches, writes, transactions) go through it instead of
   * `fetch`: the same outbound calls without web Request/Response objects (nodes pass `services.request`). Token
   * requests and streamed bodies (`open`) still use `fetch`.
   */
  request?: HttpExchange;
  /** Where OAuth2 tokens are cached (e.g. connector id + updatedAt); by default the credentials' hash. */
  cacheKey?: string;
  /** Time limit of each HTTP exchange, body included (default 30 s). */
  timeoutMs?: number;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the client's time limit for this call. */
  timeoutMs?: number;
}

/**
 * A write's options. `answer`: what the server is asked to send back (`Prefer: return=…`): the stored resource (or, for
 * a transaction, every entry's) — the default — or a minimal answer (status and location; a transaction's entries
 * without their resources), when nothing will read it.
 */
export interface WriteOptions extends CallOptions {
  answer?: 'representation' | 'minimal';
}

export interface SearchOptions extends CallOptions {
  /** Follow `next` links up to this many pages in all (default 10). */
  maxPages?: number;
  /** Stop once this many entries are gathered (default 1000). */
  maxResources?: number;
}

/** A server's answer to a write. */
export interface WriteResult {
  status: number;
  /** The Location header (`Patient/123/_history/1`), if any. */
  location?: string;
  /** The resource (or transaction-response Bundle) the server returned, if it returned one. */
  resource?: Resource;
  outcome?: OperationOutcome;
}

export interface Exchange {
  status: number;
  headers: { get(name: string): string | null };
  body: unknown;
}

const FHIR_JSON = 'application/fhir+json';

export class FhirClient {
  readonly baseUrl: string;
  private readonly origin: string;
  private readonly cacheKey: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: FhirClientOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new FhirError('FHIR_CONFIG_INVALID', `"${options.baseUrl}" is not a URL: the FHIR base URL must be http(s)://host/path`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FhirError('FHIR_CONFIG_INVALID', 'the FHIR base URL must be http or https');
    // credentials in a URL end up in logs and execution records: they belong in the auth settings
    if (url.username || url.password)
      throw new FhirError('FHIR_CONFIG_INVALID', 'the FHIR base URL holds credentials: put them in the auth settings (basic) instead');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.origin = url.origin;
    this.cacheKey = options.cacheKey ?? defaultCacheKey(options.auth);
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** `GET [base]/{type}/{id}` */
  async read<T extends Resource = Resource>(resourceType: string, id: string, options: CallOptions = {}): Promise<T> {
    const answer = await this.ok('GET', `${encodeURIComponent(resourceType)}/${encodeURIComponent(id)}`, undefined, {}, options);
    return this.resourceOf(answer, `GET ${resourceType}/${id}`) as T;
  }

  /**
   * Runs a search such as `Patient?family=smith&_count=50`, following `link[rel=next]` up to the limits, and
   * returns one searchset Bundle with every page's entries. When a limit cut the search short, the Bundle
   * keeps a `next` link to where it stopped.
   */
  async search(query: string, options: SearchOptions = {}): Promise<Bundle> {
    const maxPages = options.maxPages ?? 10;
    const maxResources = options.maxResources ?? 1000;
    const entries: BundleEntry[] = [];
    let url = this.url(query);
    let pages = 0;
    let total: number | undefined;
    let next: string | undefined;
    for (;;) {
      const answer = await this.ok('GET', url, undefined, {}, options);
      const page = this.resourceOf(answer, `GET ${shown(url)}`) as Bundle;
      if (page.resourceType !== 'Bundle') throw new FhirError('FHIR_BAD_RESPONSE', `the search ${shown(url)} answered a ${page.resourceType}, not a Bundle`);
      pages++;
      total ??= page.total;
      entries.push(...(page.entry ?? []));
      const pageNext = page.link?.find((l) => l.relation === 'next')?.url;
      if (pageNext) this.sameServer(pageNext, 'a next link');
      if (entries.length >= maxResources) {
        entries.length = maxResources;
        next = pageNext;
        break;
      }
      if (!pageNext) break;
      if (pages >= maxPages) {
        next = pageNext;
        break;
      }
      url = pageNext;
    }
    const link: BundleLink[] = [{ relation: 'self', url: this.url(query) }];
    if (next) link.push({ relation: 'next', url: next });
    return { resourceType: 'Bundle', type: 'searchset', ...(total !== undefined ? { total } : {}), link, entry: entries };
  }

  /** `POST [base]/{type}`; with `ifNoneExist` (e.g. `identifier=http://hosp|123`) a conditional create. */
  create(resource: Resource, options: WriteOptions & { ifNoneExist?: string } = {}): Promise<WriteResult> {
    const headers: Record<string, string> = options.ifNoneExist ? { 'If-None-Exist': options.ifNoneExist } : {};
    return this.write('POST', encodeURIComponent(resource.resourceType), resource, headers, options);
  }

  /** `PUT [base]/{type}/{id}` */
  update(resource: Resource, options: WriteOptions = {}): Promise<WriteResult> {
    if (!resource.id) throw new FhirError('FHIR_INVALID_REQUEST', `an update needs the resource's id (the ${resource.resourceType} has none)`);
    return this.write('PUT', `${encodeURIComponent(resource.resourceType)}/${encodeURIComponent(resource.id)}`, resource, {}, options);
  }

  /** `POST [base]` with a transaction (or batch) Bundle; `resource` is the transaction-response Bundle. */
  transaction(bundle: Bundle, options: WriteOptions = {}): Promise<WriteResult> {
    return this.write('POST', '', bundle, {}, options);
  }

  /** The server's CapabilityStatement (`GET [base]/metadata`). */
  async capabilities(options: CallOptions = {}): Promise<Resource> {
    return this.resourceOf(await this.ok('GET', 'metadata', undefined, {}, options), 'GET metadata');
  }

  private async write(method: 'POST' | 'PUT', path: string, body: Resource, headers: Record<string, string>, options: WriteOptions): Promise<WriteResult> {
    const prefer = `return=${options.answer ?? 'representation'}`;
    const answer = await this.ok(method, path, body, { 'Content-Type': FHIR_JSON, Prefer: prefer, ...headers }, options);
    const location = answer.headers.get('location') ?? answer.headers.get('content-location') ?? undefined;
    const result: WriteResult = { status: answer.status, ...(location ? { location } : {}) };
    if (isOperationOutcome(answer.body)) result.outcome = answer.body;
    else if (isResource(answer.body)) result.resource = answer.body;
    return result;
  }

  /** A request that must answer 2xx (else a FhirError with the OperationOutcome's text). */
  async ok(method: string, pathOrUrl: string, body: unknown, headers: Record<string, string>, options: CallOptions): Promise<Exchange> {
    const answer = await this.exchange(method, pathOrUrl, body, headers, options);
    if (answer.status < 200 || answer.status > 299) throw answerError(`${method} ${shown(this.url(pathOrUrl))}`, answer.status, answer.body);
    return answer;
  }

  /**
   * One HTTP exchange with the server, authenticated, under a time limit and the caller's signal. A 401 with
   * an OAuth2 token drops the token and tries once more with a fresh one (it may have been revoked early).
   */
  async exchange(method: string, pathOrUrl: string, body: unknown, headers: Record<string, string>, options: CallOptions): Promise<Exchange> {
    const url = this.url(pathOrUrl);
    const first = await this.send(method, url, body, headers, options);
    if (first.status !== 401 || this.options.auth.kind !== 'oauth2') return first;
    forgetToken(this.cacheKey);
    return this.send(method, url, body, headers, options);
  }

  /** Streams a response body for the bulk export reader: same auth, time limit and error handling. */
  async open(url: string, headers: Record<string, string>, options: CallOptions & { authenticate: boolean }): Promise<Response> {
    return this.call('GET', this.url(url), undefined, headers, options, async (response) => response, options.authenticate, true);
  }

  private send(method: string, url: string, body: unknown, headers: Record<string, string>, options: CallOptions): Promise<Exchange> {
    const exchange = this.options.request;
    if (exchange) {
      return this.request(method, url, body, headers, options, true, async (all, signal) => {
        const answer = await exchange({ url, method, headers: all, body: body === undefined ? undefined : JSON.stringify(body), signal, redirect: 'manual' });
        const text = answer.body.toString('utf8');
        return { status: answer.status, headers: { get: (name) => answer.headers[name.toLowerCase()] ?? null }, body: parsed(text) };
      });
    }
    return this.call(
      method,
      url,
      body,
      headers,
      options,
      async (response) => ({ status: response.status, headers: response.headers, body: await readBody(response) }),
      true,
    );
  }

  /** A call through `fetch`, its Response read by `read`. */
  private call<T>(
    method: string,
    url: string,
    body: unknown,
    headers: Record<string, string>,
    options: CallOptions,
    read: (response: Response) => Promise<T>,
    authenticate: boolean,
    streamed = false,
  ): Promise<T> {
    return this.request(
      method,
      url,
      body,
      headers,
      options,
      authenticate,
      async (all, signal) =>
        read(
          await this.options.fetch(url, {
            method,
            headers: all,
            body: body === undefined ? undefined : JSON.stringify(body),
            signal,
            redirect: 'manual',
          }),
        ),
      streamed,
    );
  }

  /** A call under the time limit and the caller's signal, authenticated when asked; failures as FhirErrors. */
  private async request<T>(
    method: string,
    url: string,
    body: unknown,
    headers: Record<string, string>,
    options: CallOptions,
    authenticate: boolean,
    go: (headers: Record<string, string>, signal: AbortSignal) => Promise<T>,
    streamed = false,
  ): Promise<T> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const deadline = new Deadline(timeoutMs, options.signal);
    const signal = deadline.signal;
    const target = `${method} ${shown(url)}`;
    let done = false;
    try {
      const all: Record<string, string> = { Accept: FHIR_JSON, ...headers };
      if (authenticate) {
        this.sameServer(url, 'a request');
        const auth = await authorization(this.options.auth, { fetch: this.options.fetch, signal, cacheKey: this.cacheKey });
        if (auth) all.Authorization = auth;
      }
      const result = await go(all, signal);
      done = !streamed;
      return result;
    } catch (e) {
      done = true;
      if (e instanceof FhirError) throw e;
      if (deadline.timedOut) throw new FhirError('FHIR_TIMEOUT', `${target} got no full answer within ${timeoutMs} ms`);
      if (options.signal?.aborted) throw new FhirError('FHIR_CANCELLED', `${target} was aborted`);
      throw new FhirError('FHIR_UNREACHABLE', `${target} failed: ${causeOf(e)}`);
    } finally {
      // a streamed body is read after this returns, under the same time limit: its deadline ends itself
      if (done) deadline.release();
    }
  }

  /** A path relative to the base URL, or an absolute URL as the server gave it (next links, status URLs). */
  url(pathOrUrl: string): string {
    if (/^https?:\/\//i.test(pathOrUrl)) return pathOrUrl;
    const path = pathOrUrl.replace(/^\/+/, '');
    return path ? `${this.baseUrl}/${path}` : this.baseUrl;
  }

  /** Credentials go to the configured server only: a link elsewhere is refused rather than followed with them. */
  sameServer(url: string, what: string): void {
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      throw new FhirError('FHIR_BAD_RESPONSE', `the server gave ${what} that is not a URL`);
    }
    if (origin !== this.origin)
      throw new FhirError('FHIR_BAD_RESPONSE', `the server gave ${what} to another host (${origin}); it is not followed with the connector's credentials`);
  }

  private resourceOf(answer: Exchange, target: string): Resource {
    if (!isResource(answer.body)) throw new FhirError('FHIR_BAD_RESPONSE', `${target} answered ${answer.status} without a FHIR resource`);
    return answer.body;
  }
}

function isResource(value: unknown): value is Resource {
  return typeof value === 'object' && value !== null && typeof (value as { resourceType?: unknown }).resourceType === 'string';
}

async function readBody(response: Response): Promise<unknown> {
  return parsed(await response.text());
}

/** A body's text as JSON, the text itself when it is not JSON, undefined when empty. */
function parsed(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
