/**
 * The one error table: every code a service may throw, with its HTTP status. The REST adapter and the
 * tRPC error formatter both read it, so a code means the same everywhere.
 */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  INVALID_JSON: 400,
  JSON_TOO_DEEP: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  PIPELINE_NOT_FOUND: 404,
  PIPELINE_VERSION_NOT_FOUND: 404,
  API_KEY_NOT_FOUND: 404,
  NODE_TYPE_NOT_FOUND: 404,
  EXECUTION_NOT_FOUND: 404,
  STEP_SESSION_NOT_FOUND: 404,
  NODE_NOT_FOUND: 404,
  MEMBER_NOT_FOUND: 404,
  CONNECTOR_NOT_FOUND: 404,
  AGENT_NOT_FOUND: 404,
  AGENT_VERSION_NOT_FOUND: 404,
  CONVERSATION_NOT_FOUND: 404,
  TOOL_NOT_FOUND: 404,
  TOOL_NOT_ASSIGNED: 404,
  SUGGESTION_NOT_FOUND: 404,
  AGENT_TEMPLATE_READ_ONLY: 403,
  TOOL_READ_ONLY: 403,
  METHOD_NOT_ALLOWED: 405,
  PIPELINE_DEPLOYED: 409,
  PIPELINE_NOT_DEPLOYED: 409,
  VERSION_CONFLICT: 409,
  LAST_ADMIN: 409,
  ALREADY_MEMBER: 409,
  INVITATION_INVALID: 400,
  CONNECTOR_IN_USE: 409,
  CONNECTOR_NAME_TAKEN: 409,
  AGENT_DEPLOYED: 409,
  AGENT_NOT_DEPLOYED: 409,
  AGENT_INACTIVE: 409,
  TOOL_IN_USE: 409,
  TOOL_NAME_TAKEN: 409,
  CONVERSATION_BUSY: 409,
  SUGGESTION_STALE: 409,
  SUGGESTION_APPLIED: 409,
  SUGGESTION_NOT_APPLICABLE: 409,
  AGENT_INVALID: 400,
  MODEL_NOT_FOUND: 400,
  MODEL_UNAVAILABLE: 400,
  PIPELINE_INVALID: 400,
  REQUEST_NOT_UNDERSTOOD: 400,
  WEBHOOK_NOT_ENABLED: 409,
  PORT_IN_USE: 409,
  LISTENER_FAILED: 503,
  STEP_SESSION_EXPIRED: 410,
  STEP_SESSION_FINISHED: 409,
  PAYLOADS_NOT_KEPT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  CONCURRENCY_LIMIT: 429,
  INTERNAL: 500,
  LLM_FAILED: 500,
  AGENT_TIMEOUT: 500,
  SERVICE_UNAVAILABLE: 503,
  CONNECTOR_KEY_MISSING: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorBody {
  error: { code: ErrorCode; message: string; status: number; details?: unknown };
}

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }

  toBody(): ErrorBody {
    const error: ErrorBody['error'] = { code: this.code, message: this.message, status: this.status };
    if (this.details !== undefined) error.details = this.details;
    return { error };
  }
}
