import { initTRPC, TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { ZodError } from 'zod';
import type { KeyCache } from '@/server/auth/key-cache';
import type { Principal } from '@/server/auth/principal';
import type { Queue } from '@/server/queue/queue';
import { hasScope, type BaseScope } from '@/server/auth/scopes';
import type { Db } from '@/server/db/client';
import { databaseUnavailable, isDatabaseUnavailable } from '@/server/db/unavailable';
import { logOutage } from '@/server/db/outage-log';
import { AppError, type ErrorCode } from '@/server/errors';
import { errorForLog, logger } from '@/server/logger';
import type { Runtime } from '@/server/runtime';
import { serviceContext, type Channel, type ServiceHost } from '@/server/services/context';
import { auditCall, type AuditMeta } from './audit-meta';

export interface Context {
  rt: Runtime;
  db: Db;
  keyCache?: KeyCache;
  queue?: Queue;
  host: ServiceHost;
  principal: Principal | null;
  channel: Channel;
  /** Why there is no principal, told to the caller when a procedure needs one. */
  authError?: AppError;
  /** Status and headers a procedure wants on its REST response. */
  response: { status?: number; headers: Record<string, string> };
}

export function createContext(rt: Runtime, principal: Principal | null, authError?: AppError, channel: Channel = 'api'): Context {
  return { rt, ...serviceContext(rt, principal, channel), authError, response: { headers: {} } };
}

export interface Meta extends OpenApiMeta {
  /** HTTP status of a successful REST response (default 200). */
  successStatus?: 201 | 202 | 204;
  /**
   * Codes this operation's service can fail with, beyond those every operation can (authentication,
   * rate limit, request validation, body, internal): the OpenAPI document lists them per status.
   */
  errors?: ErrorCode[];
  /** What a successful call adds to the audit trail (issue 30 §3). */
  audit?: AuditMeta;
}

const TRPC_CODE: Record<number, TRPCError['code']> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

/** Turns any error reaching tRPC into one of ours, so both transports answer with the same body. */
export function toAppError(error: TRPCError): AppError {
  const cause = error.cause;
  if (cause instanceof AppError) return cause;
  if (cause instanceof ZodError) {
    if (error.code === 'BAD_REQUEST') {
      const details = cause.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
      const summary = details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).join('; ');
      return new AppError('VALIDATION_FAILED', `Invalid request: ${summary}`, details);
    }
    logger.error('output validation failed', { issues: cause.issues });
    return new AppError('INTERNAL', 'Internal server error.');
  }
  switch (error.code) {
    case 'PARSE_ERROR':
      return new AppError('INVALID_JSON', 'The request body is not valid JSON.');
    case 'BAD_REQUEST':
      return new AppError('VALIDATION_FAILED', error.message);
    case 'UNAUTHORIZED':
      return new AppError('UNAUTHENTICATED', error.message);
    case 'FORBIDDEN':
      return new AppError('FORBIDDEN', error.message);
    case 'NOT_FOUND':
      return new AppError('NOT_FOUND', error.message);
    case 'METHOD_NOT_SUPPORTED':
      return new AppError('METHOD_NOT_ALLOWED', error.message);
    case 'PAYLOAD_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', 'The request body is too large.');
    case 'UNSUPPORTED_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json.');
    case 'TOO_MANY_REQUESTS':
      return new AppError('RATE_LIMITED', error.message);
    default:
      if (isDatabaseUnavailable(cause)) {
        logOutage('request refused: the database is unavailable', { error: errorForLog(cause) });
        return databaseUnavailable();
      }
      logger.error('unhandled error', { error: errorForLog(cause ?? error) });
      return new AppError('INTERNAL', 'Internal server error.');
  }
}

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    errorFormatter({ shape, error }) {
      const app = toAppError(error);
      // never a stack trace or SQL text: only our code, message and details
      return { message: app.message, code: shape.code, data: { httpStatus: app.status, app: app.toBody().error } };
    },
  });

export const createCallerFactory = t.createCallerFactory;
export const router = t.router;

/** An AppError as the TRPCError of the matching code, so tRPC's HTTP status agrees with ours. */
function trpcError(app: AppError): TRPCError {
  return new TRPCError({ code: TRPC_CODE[app.status] ?? 'INTERNAL_SERVER_ERROR', message: app.message, cause: app });
}

/**
 * What every procedure's one middleware does around the procedure: carries its declared success status to the REST
 * response, and turns the AppError it threw into the matching TRPCError. One middleware, not one per concern: tRPC
 * copies a call's options at every level (~5% of the CPU of a GET, profiled).
 */
async function around<R extends { ok: boolean; error?: { cause?: unknown }; data?: unknown }>(
  meta: Meta | undefined,
  ctx: Context,
  call: () => Promise<R>,
  rawInput?: () => Promise<unknown>,
): Promise<R> {
  if (meta?.successStatus) ctx.response.status = meta.successStatus;
  const result = await call();
  if (!result.ok && result.error?.cause instanceof AppError) throw trpcError(result.error.cause);
  if (result.ok && meta?.audit && rawInput) await auditCall(ctx, meta.audit, await rawInput(), result.data);
  return result;
}

export const publicProcedure = t.procedure.use(({ meta, ctx, next }) => around(meta, ctx, () => next()));

function scoped(scope: BaseScope) {
  return t.procedure.use(({ meta, ctx, next, getRawInput }) => {
    if (!ctx.principal) throw trpcError(ctx.authError ?? new AppError('UNAUTHENTICATED', 'Authentication is required.'));
    if (!hasScope(ctx.principal.scopes, scope)) {
      throw trpcError(new AppError('FORBIDDEN', `This key lacks the "${scope}" scope needed for this operation.`));
    }
    const principal = ctx.principal;
    return around(meta, ctx, () => next({ ctx: { ...ctx, principal } }), getRawInput);
  });
}

export const readProcedure = scoped('read');
export const writeProcedure = scoped('write');
export const executeProcedure = scoped('execute');
export const adminProcedure = scoped('admin');
