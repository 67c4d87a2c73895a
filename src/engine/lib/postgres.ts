import postgres from 'postgres';
import { NodeError } from '../node-error';
import type { ConnectorHandle, NodeServices } from '../node-type';
import { processWide } from './process-wide';

/** Shared plumbing of the postgres-query and postgres-write nodes: one small pool per connector. */

/** Connections per connector: enough for a few concurrent executions, small for the database's sake. */
const POOL_SIZE = 4;
/** Seconds an idle connection stays open; then the pool closes it. */
const IDLE_SECONDS = 30;

interface Pool {
  sql: postgres.Sql;
  version: string;
}

const pools = processWide('postgres-connector-pools', () => new Map<string, Pool>());

/** The connection string with its password, from the connector (the password lives in its credentials). */
function connectionString(connector: ConnectorHandle): URL {
  const c = connector.credentials;
  const raw = typeof c.connection_string === 'string' ? c.connection_string : String(connector.config.connection_string ?? connector.endpoint);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new NodeError('CONNECTOR_REQUIRED', `Connector "${connector.name}" has no valid connection string (postgres://user@host:5432/database).`);
  }
  if (!/^postgres(ql)?:$/.test(url.protocol) || !url.hostname) {
    throw new NodeError('CONNECTOR_REQUIRED', `Connector "${connector.name}" has no valid connection string (postgres://user@host:5432/database).`);
  }
  if (typeof c.password === 'string' && c.password) url.password = encodeURIComponent(c.password);
  return url;
}

/**
 * The pool of a connector, made on first use and made again when the connector changes. Every connection
 * goes through `services.connect`, so the outbound policy checks the host's addresses first; idle
 * connections close after 30 s.
 */
export function poolOf(connector: ConnectorHandle, services: NodeServices): postgres.Sql {
  const version = connector.updatedAt;
  const existing = pools.get(connector.id);
  if (existing?.version === version) return existing.sql;
  if (existing) void existing.sql.end({ timeout: 5 });
  const url = connectionString(connector);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port || 5432);
  const schema = typeof connector.config.schema === 'string' && connector.config.schema ? connector.config.schema : undefined;
  // `socket` (documented in postgres.js, missing from its types): our connection, TLS still negotiated by postgres.js
  const options = {
    max: POOL_SIZE,
    idle_timeout: IDLE_SECONDS,
    onnotice: () => {},
    // a date stays the calendar day it is (1960-04-13), not a midnight in some time zone
    types: { date: { to: 1082, from: [1082], serialize: (x: string) => x, parse: (x: string) => x } },
    prepare: false,
    connection: { application_name: 'clinflow', ...(schema ? { search_path: schema } : {}) },
    socket: () => services.connect({ host, port }),
  };
  const sql = postgres(url.toString(), options as postgres.Options<Record<string, postgres.PostgresType>>);
  pools.set(connector.id, { sql, version });
  return sql;
}

/** Closes every pool (tests, shutdown). */
export async function closePools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.sql.end({ timeout: 5 })));
}

/** A database error in words, with its SQLSTATE; the connection string never appears in it. */
export function postgresFailure(e: unknown, what: string): NodeError {
  if (e instanceof NodeError) return e;
  const err = e as { code?: string; message?: string; detail?: string; severity?: string };
  if (err?.code === '57014') return new NodeError('POSTGRES_TIMEOUT', `${what} was cancelled: it ran longer than timeout_ms.`);
  if (err instanceof postgres.PostgresError || err?.severity) {
    return new NodeError('POSTGRES_ERROR', `${what} failed: ${err.message}${err.detail ? ` (${err.detail})` : ''} [SQLSTATE ${err.code}]`);
  }
  return new NodeError('POSTGRES_UNREACHABLE', `${what} failed: the database could not be reached (${err?.message ?? String(e)}).`);
}

/** A value as plain JSON: timestamps as ISO text, dates as YYYY-MM-DD, bytea as base64, 64-bit integers as text. */
export function plainRow(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = plainValue(v);
  return out;
}

function plainValue(v: unknown): unknown {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return v.map(plainValue);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plainValue(x)]));
  return v;
}

/** The connector a Postgres node names, or a NodeError saying what to set. */
export async function postgresConnector(services: NodeServices, ref: string): Promise<ConnectorHandle> {
  if (!ref) throw new NodeError('CONNECTOR_REQUIRED', 'Set `connector` to a postgres connector (the database to use).');
  return services.connector(ref, 'postgres');
}
