import cluster from 'node:cluster';
import { env } from '@/env';
import { getDatabase, type Database, type Db } from '@/server/db/client';
import { migrateDatabase } from '@/server/db/migrate';
import { authSecret, createAuth, type Auth } from '@/server/auth/better-auth';
import { KEY_CACHE_TTL_MS, KeyCache, listenForRevocations } from '@/server/auth/key-cache';
import { createRateLimiter, type RateLimiter } from '@/server/auth/rate-limit';
import { bootstrap, type BootstrapResult } from '@/server/services/orgs/bootstrap';
import { onSignUp } from '@/server/services/orgs/on-sign-up';
import { serviceHost } from '@/server/services/compose';
import type { ServiceHost } from '@/server/services/context';
import { auditSignIn } from '@/server/services/audit/sign-in';
import { startJobs } from '@/server/jobs';
import { logger } from '@/server/logger';
import { createQueue, type Queue } from '@/server/queue/queue';
import { MllpListeners } from '@/server/services/mllp/listeners';
import { followListener, resumeListeners } from '@/server/services/pipelines/triggers';

/** Everything a request needs, made once per process. */
export interface Runtime {
  database: Database;
  db: Db;
  auth: Auth;
  apiLimiter: RateLimiter;
  /** Agent chat, per user or API key (chat, conversation messages, public invoke). */
  chatLimiter: RateLimiter;
  /** Copilot requests, per user or API key. */
  copilotLimiter: RateLimiter;
  /** API key lookups, cached (see KeyCache for how revocations reach every process). */
  keyCache?: KeyCache;
  /** The execution queue (pg-boss); absent where nothing may run asynchronously (some tests). */
  queue?: Queue;
  /** What services lend one another across areas (a pipeline's agent node, an agent's pipeline tools): services/compose.ts. */
  host: ServiceHost;
}

export interface RuntimeOptions {
  rateLimitPerWindow?: number;
  rateLimitWindowSeconds?: number;
  chatLimitPerWindow?: number;
  queue?: Queue;
}

/** Builds a runtime over an open database (tests call this directly with an in-memory PGlite). */
export async function createRuntime(database: Database, opts: RuntimeOptions = {}): Promise<Runtime> {
  const secret = await authSecret(database.db);
  const keyCache = new KeyCache(database.kind === 'pglite' ? Infinity : KEY_CACHE_TTL_MS);
  if (database.kind === 'postgres') await listenForRevocations(database.url!, keyCache);
  return {
    database,
    db: database.db,
    auth: createAuth(
      database.db,
      secret,
      {
        byAddress: createRateLimiter(database, { name: 'sign-in-address', points: env.AUTH_ATTEMPTS_PER_MINUTE, durationSeconds: 60 }),
        byAccount: createRateLimiter(database, { name: 'sign-in-account', points: env.AUTH_ATTEMPTS_PER_MINUTE, durationSeconds: 60 }),
      },
      onSignUp,
      auditSignIn,
    ),
    keyCache,
    queue: opts.queue,
    host: serviceHost,
    apiLimiter: createRateLimiter(database, {
      name: 'api',
      points: opts.rateLimitPerWindow ?? env.RATE_LIMIT_PER_MINUTE,
      durationSeconds: opts.rateLimitWindowSeconds ?? env.RATE_LIMIT_WINDOW_SECONDS,
    }),
    chatLimiter: createRateLimiter(database, {
      name: 'agent-chat',
      points: opts.chatLimitPerWindow ?? env.AGENT_CHAT_PER_MINUTE,
      durationSeconds: opts.rateLimitWindowSeconds ?? env.RATE_LIMIT_WINDOW_SECONDS,
    }),
    copilotLimiter: createRateLimiter(database, {
      name: 'copilot',
      points: env.COPILOT_PER_MINUTE,
      durationSeconds: opts.rateLimitWindowSeconds ?? env.RATE_LIMIT_WINDOW_SECONDS,
    }),
  };
}

function announce(result: BootstrapResult): void {
  const lines: string[] = [];
  if (result.created) {
    // Printed once, on the start that created them: the key is stored only as a hash.
    lines.push('', '  Clinflow created a default organization and an admin API key (shown only this once):');
    lines.push(`    X-Organization-ID: ${result.created.orgId}`, `    Authorization: Bearer ${result.created.apiKey}`);
  }
  if (result.setupToken) {
    // a new token on every start until someone joins; only its hash is stored
    lines.push('', '  To join that organization as its admin in the browser, sign up once at:');
    lines.push(
      `    ${env.APP_URL ?? `http://localhost:${env.PORT}`}/sign-up?setup=${result.setupToken}`,
      '  (anyone signing up without it gets an organization of their own)',
    );
  }
  if (lines.length) process.stdout.write([...lines, ''].join('\n') + '\n');
}

declare global {
  // one runtime per process, kept across Next's module reloads in development
  var clinflowRuntime: Promise<Runtime> | undefined;
}
const globalForRuntime = globalThis;

/** Migrations, then the start-up organization (and the one-time lines that announce it). */
export async function prepareDatabase(database: Database): Promise<void> {
  await migrateDatabase(database, env.DATABASE_URL);
  announce(await bootstrap(database.db, { orgId: env.BOOTSTRAP_ORG_ID, apiKey: env.BOOTSTRAP_API_KEY, setupToken: env.BOOTSTRAP_SETUP_TOKEN }));
}

/** The process's runtime: opens the database, applies migrations, bootstraps, on first use. */
export function getRuntime(): Promise<Runtime> {
  globalForRuntime.clinflowRuntime ??= (async () => {
    const database = await getDatabase();
    // in a cluster the primary prepared the database once (one setup token printed, not one per process)
    if (!cluster.isWorker) await prepareDatabase(database);
    logger.info(`database ready (${database.kind})`);
    const queue = await createQueue(database, {
      heartbeatSeconds: env.QUEUE_HEARTBEAT_SECONDS,
      superviseIntervalSeconds: env.QUEUE_SUPERVISE_SECONDS,
      cronSeconds: env.QUEUE_CRON_SECONDS,
    });
    // the embedded database belongs to this process, so it is also where its queue is worked
    await startJobs(queue, database.db, {
      executions: database.kind === 'pglite' || env.WORKER_IN_SERVER,
      concurrency: env.WORKER_CONCURRENCY,
      prune: { cron: env.PRUNE_SCHEDULE, vacuum: database.kind === 'pglite' ? true : 'if-off' },
    });
    // deployed pipelines' MLLP ports are opened by every web process (on one port in a cluster), again on each
    // start, and follow deploys and undeploys made in other processes
    const listeners = new MllpListeners(database.db, queue);
    const own = { ...queue.triggers, listen: listeners.listen.bind(listeners), unlisten: listeners.unlisten.bind(listeners) };
    await queue.attachListeners(listeners, (pipelineId) => followListener(database.db, own, pipelineId));
    await resumeListeners(database.db, own);
    return createRuntime(database, { queue });
  })().catch((e) => {
    globalForRuntime.clinflowRuntime = undefined;
    throw e;
  });
  return globalForRuntime.clinflowRuntime;
}
