import { z } from 'zod';

/** A comma-separated list, blanks dropped. */
const list = (v: string) =>
  v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/**
 * The only reader of process.env. Everything is optional: a fresh machine runs on embedded PGlite in
 * ./.data with a generated organization and admin key.
 */
/** A 32-byte key written in base64 (`openssl rand -base64 32`). */
function base64Key(name: string) {
  return z.string().refine((v) => Buffer.from(v, 'base64').length === 32, `${name} must be 32 bytes in base64 (openssl rand -base64 32)`);
}

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** postgres://… — when absent, the embedded PGlite database in DATA_DIR is used. */
  DATABASE_URL: z.string().url().optional(),
  /** Folder of the embedded database (and its lock file). `memory://` keeps it in memory. */
  DATA_DIR: z.string().min(1).default('./.data'),
  BOOTSTRAP_ORG_ID: z.string().min(1).max(100).optional(),
  BOOTSTRAP_API_KEY: z
    .string()
    .regex(/^cfk_[A-Za-z0-9_-]{16,}$/, 'BOOTSTRAP_API_KEY must look like cfk_<at least 16 characters>')
    .optional(),
  /**
   * The one-time token that lets a browser sign-up claim the start-up organization as its admin (sent as the
   * X-Setup-Token header, or from /sign-up?setup=…). Without it, one is generated and printed at start while that
   * organization has no member; every other sign-up gets an organization of its own.
   */
  BOOTSTRAP_SETUP_TOKEN: z.string().min(16).max(200).optional(),
  /** API requests per organization per minute (spec: 1000). */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(1000),
  /** Agent chat (chat, conversation messages, public invoke) per user or API key (spec §8: 60 a minute). */
  AGENT_CHAT_PER_MINUTE: z.coerce.number().int().positive().default(60),
  /** Copilot requests per user or API key per minute (spec §8: 30). */
  COPILOT_PER_MINUTE: z.coerce.number().int().positive().default(30),
  /** Length of the rate-limit window in seconds (60 per the spec; tests may shorten it). */
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  /** Browser sign-in and sign-up attempts allowed per client address per minute (brute-force guard). */
  AUTH_ATTEMPTS_PER_MINUTE: z.coerce.number().int().positive().default(10),
  /**
   * Days audit-trail entries are kept (issue 30 §3): six years by default (HIPAA keeps its documentation that long,
   * §164.316(b)(2)); at least a year and a day, longer than a run's data is kept by default (365 days).
   */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(366).max(36_500).default(2190),
  /** Secret for signing browser sessions; when absent, generated into DATA_DIR/auth.secret (embedded) or the database (Postgres). */
  AUTH_SECRET: z.string().min(32).optional(),
  /**
   * The key (32 bytes, base64) that encrypts connector credentials at rest (AES-256-GCM). Required with
   * DATABASE_URL; embedded, one is generated into DATA_DIR/connector.key on first use when it is absent.
   */
  CONNECTOR_KEY: base64Key('CONNECTOR_KEY').optional(),
  /** Earlier CONNECTOR_KEYs (comma-separated), still read while credentials written under them are re-encrypted. */
  CONNECTOR_KEY_PREVIOUS: z
    .string()
    .default('')
    .transform((v) => list(v))
    .pipe(z.array(base64Key('CONNECTOR_KEY_PREVIOUS'))),
  /** Public URL of the app, when it is served behind a proxy under another origin. */
  APP_URL: z.string().url().optional(),
  /** The port `npm start` listens on. */
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** The address it listens on (all interfaces by default). */
  HOSTNAME: z.string().min(1).default('0.0.0.0'),
  /**
   * Connections each process keeps to Postgres for requests and runs (its queue holds up to 7 more): with
   * WEB_CONCURRENCY processes and workers, the total must stay under the server's max_connections (100 by default).
   */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * Server processes sharing the port on Postgres (node:cluster), each also a queue worker unless
   * WORKER_IN_SERVER=false; default: the number of cores. The embedded database is one process's, so with
   * PGlite there is always one.
   */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  /**
   * Proxies whose X-Forwarded-For is believed (comma-separated CIDRs, addresses, or `loopback`,
   * `linklocal`, `uniquelocal`). Without them the client's address is the connection's, whatever the
   * request claims; rate limits by address use it.
   */
  TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform((v) => list(v))
    .pipe(z.array(z.string().regex(/^[\w.:/]+$/, 'expected CIDRs, addresses or loopback/linklocal/uniquelocal, comma-separated'))),
  /** Whether the web process also works the execution queue (embedded mode always does). */
  WORKER_IN_SERVER: z.stringbool().default(true),
  /** Executions one process runs at once. */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(10),
  /** Seconds without a heartbeat before a dead worker's execution is handed to another (>= 10). */
  QUEUE_HEARTBEAT_SECONDS: z.coerce.number().int().min(10).default(30),
  /** How often pg-boss looks for such executions. */
  QUEUE_SUPERVISE_SECONDS: z.coerce.number().int().min(1).default(15),
  /** How often (seconds) pg-boss turns due cron schedules into jobs (1 to 45). */
  QUEUE_CRON_SECONDS: z.coerce.number().int().min(1).max(45).default(5),
  /**
   * When the pruner runs (cron, in UTC): it enforces each pipeline's retention (payload_days, execution_days,
   * max_executions), one pass at a time across every process. Every five minutes by default.
   */
  PRUNE_SCHEDULE: z
    .string()
    .regex(/^\S+( \S+){4,5}$/, 'PRUNE_SCHEDULE must be a cron expression of 5 (or 6, with seconds) fields, e.g. */5 * * * *')
    .default('*/5 * * * *'),
  /** The largest request body the API reads, in bytes (2 MiB). */
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(2 * 1024 * 1024),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /**
   * What outbound calls (connectors, http-request) may reach besides public addresses: comma-separated
   * CIDRs (`10.20.0.0/16`), addresses, host names (`fhir.hospital.local`, `*.hospital.local`) and the
   * names of address kinds (`loopback`, `private`, `link-local`, `cgnat`, `unique-local`).
   */
  OUTBOUND_ALLOW: z
    .string()
    .default('')
    .transform((v) => list(v))
    .pipe(z.array(z.string().regex(/^[\w.:*/-]+$/, 'expected CIDRs, addresses, host names or address kinds, comma-separated'))),
  /** OpenAI API key: makes the `openai/…` language models available. */
  OPENAI_API_KEY: z.string().min(1).optional(),
  /** Another base URL for the OpenAI API (a proxy or Azure-style gateway); default https://api.openai.com/v1. */
  OPENAI_BASE_URL: z.string().url().optional(),
  /** Anthropic API key: makes the `anthropic/…` language models available. */
  ANTHROPIC_API_KEY: z.string().min(1).optional(),
  /** Base URL of any OpenAI-compatible chat completions API (Ollama: http://127.0.0.1:11434/v1, vLLM…). */
  OPENAI_COMPATIBLE_BASE_URL: z.string().url().optional(),
  /** Its API key, when it wants one. */
  OPENAI_COMPATIBLE_API_KEY: z.string().min(1).optional(),
  /** Its models, comma-separated, each optionally `id:context_window` (`llama3.1:8b:131072` reads the last number). */
  OPENAI_COMPATIBLE_MODELS: z
    .string()
    .default('')
    .transform((v) => list(v)),
  /** Its label: model ids read `<name>/<model>` (e.g. ollama/llama3.1). */
  OPENAI_COMPATIBLE_NAME: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'OPENAI_COMPATIBLE_NAME must be lowercase letters, digits and dashes')
    .default('openai-compatible'),
  /**
   * The language model the copilot plans pipelines with when a request names none (`model` in the body): any id of
   * GET /api/llm-models. The default, clinflow/offline, is the rule-based planner that needs no model.
   */
  COPILOT_MODEL: z.string().min(1).default('clinflow/offline'),
  /** Time limit of every outbound call (connect, send, whole answer), in milliseconds. */
  OUTBOUND_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  /** The largest response body an outbound call reads, in bytes (10 MiB). */
  OUTBOUND_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(10 * 1024 * 1024),
});

export type Env = z.infer<typeof schema>;

function load(): Env {
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid environment:\n${lines}`);
  }
  return parsed.data;
}

export const env: Env = load();
