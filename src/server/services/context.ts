import type { NodeServices } from '@/engine/node-type';
import type { KeyCache } from '@/server/auth/key-cache';
import type { Principal } from '@/server/auth/principal';
import type { Queue } from '@/server/queue/queue';
import type { Db } from '@/server/db/client';

/** What a service needs from whoever calls it: the database and the authenticated caller. */
export interface ServiceContext {
  db: Db;
  principal: Principal;
  /** Present in embedded mode; cleared whenever a key is revoked. */
  keyCache?: KeyCache;
  /** The execution queue, where there is one (schedules, async executions). */
  queue?: Queue;
  /** Where the call came in: the web app (its tRPC endpoint) or the API (REST, webhooks). */
  channel: Channel;
  /** What runs on the caller's behalf may call across areas (see ServiceHost); the runtime's, made in services/compose.ts. */
  host: ServiceHost;
}

/**
 * The services that cross areas, handed in rather than imported (as the engine is handed its NodeServices): a
 * pipeline's agent node runs an agent, an agent's tools run pipelines. Built in one place, services/compose.ts, the
 * composition root; executions, agents and tools know this interface and never import one another upward.
 */
export interface ServiceHost {
  /** What a running node of organization `orgId` may call (DESIGN.md §4): outbound calls, connectors, keys, models, agents. */
  nodeServices(db: Db, orgId: string): NodeServices;
  /** Runs a pipeline of the caller's organization synchronously (an agent's pipeline tools; in test mode, a test run). */
  runPipeline(ctx: ServiceContext, pipelineId: string, inputs: Record<string, unknown>, testMode: boolean): Promise<PipelineAnswer>;
}

/** What a synchronous pipeline run answered (POST /api/execute's answer, as much as a tool reads of it). */
export interface PipelineAnswer {
  execution_id: string;
  status: string;
  outputs?: Record<string, unknown>;
  error?: unknown;
}

export type Channel = 'app' | 'api';

/** The parts of the process's runtime (`Runtime`) that services use. */
export type ServiceRuntime = Pick<ServiceContext, 'db' | 'keyCache' | 'queue' | 'host'>;

/** What a run of a pipeline needs outside a request (a queue worker, a schedule): the database and the host. */
export type RunHost = Pick<ServiceContext, 'db' | 'host'>;

/** A service context whose caller may not be known yet. */
export type MaybeServiceContext = Omit<ServiceContext, 'principal'> & { principal: Principal | null };

/**
 * The one way a ServiceContext is made: from the runtime and the caller. The request edge uses it for
 * route handlers (webhook, streams), tRPC for its procedures' context (where the caller may still be
 * unknown: a procedure that needs one refuses without it).
 */
export function serviceContext(rt: ServiceRuntime, principal: Principal, channel?: Channel): ServiceContext;
export function serviceContext(rt: ServiceRuntime, principal: Principal | null, channel?: Channel): MaybeServiceContext;
export function serviceContext(rt: ServiceRuntime, principal: Principal | null, channel: Channel = 'api'): MaybeServiceContext {
  return { db: rt.db, principal, keyCache: rt.keyCache, queue: rt.queue, host: rt.host, channel };
}

export { isUuid } from '@/shared/ids';
