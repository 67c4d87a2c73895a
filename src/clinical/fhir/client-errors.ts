import type { OperationOutcome } from '@medplum/fhirtypes';

export type FhirErrorCode =
  /** The server answered non-2xx (the message carries the OperationOutcome's issue text). */
  | 'FHIR_ERROR'
  /** The server (or the token endpoint) refused the credentials. */
  | 'FHIR_AUTH_FAILED'
  /** No full answer within the time limit. */
  | 'FHIR_TIMEOUT'
  /** The caller aborted. */
  | 'FHIR_CANCELLED'
  /** The connection settings are unusable: a base URL that is not http(s), auth without its secrets. */
  | 'FHIR_CONFIG_INVALID'
  /** The caller asked for something FHIR cannot express (an update without id, a group export without group). */
  | 'FHIR_INVALID_REQUEST'
  /** The server could not be reached. */
  | 'FHIR_UNREACHABLE'
  /** The answer is not what FHIR says it should be (not JSON, no Content-Location…). */
  | 'FHIR_BAD_RESPONSE'
  /** A bulk export failed on the server or did not finish within its time limit. */
  | 'FHIR_EXPORT_FAILED'
  | 'FHIR_EXPORT_TIMEOUT';

/** A failed FHIR call. Messages never hold credentials or query strings (they may carry secrets). */
export class FhirError extends Error {
  constructor(
    readonly code: FhirErrorCode,
    message: string,
    readonly status?: number,
    readonly outcome?: OperationOutcome,
  ) {
    super(message);
    this.name = 'FhirError';
  }
}

const EXCERPT = 300;

/** The text of an OperationOutcome's issues, e.g. `error not-found: Not found`. */
export function outcomeText(outcome: OperationOutcome): string {
  return (outcome.issue ?? [])
    .map((i) => [i.severity, i.code].filter(Boolean).join(' ') + ': ' + (i.details?.text ?? i.diagnostics ?? i.expression?.join(', ') ?? ''))
    .join('; ');
}

export function isOperationOutcome(value: unknown): value is OperationOutcome {
  return typeof value === 'object' && value !== null && (value as { resourceType?: unknown }).resourceType === 'OperationOutcome';
}

/** The error for a non-2xx answer: the OperationOutcome's issue text when there is one, else the start of the body. */
export function answerError(target: string, status: number, body: unknown): FhirError {
  const code = status === 401 || status === 403 ? 'FHIR_AUTH_FAILED' : 'FHIR_ERROR';
  if (isOperationOutcome(body)) return new FhirError(code, `${target} answered ${status}: ${outcomeText(body)}`, status, body);
  const text = typeof body === 'string' ? body : (JSON.stringify(body) ?? '');
  const excerpt = text.length > EXCERPT ? `${text.slice(0, EXCERPT)}…` : text;
  return new FhirError(code, `${target} answered ${status}${excerpt ? `: ${excerpt}` : ''}`, status);
}

/** A URL as shown in messages: origin and path only. */
export function shown(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}
