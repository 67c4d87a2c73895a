import { z } from 'zod';
import type { ConnectorType } from '@/engine/node-type';

/**
 * A setting marked `x-auth` in its JSON Schema only matters for that authentication (the form hides it otherwise).
 *
 * The connector types: what each needs (endpoint, settings, credentials), as zod here and as JSON Schema in
 * `GET /api/connectors/types`, from which the UI builds its forms. Settings are stored as they are; credentials
 * only encrypted (secrets.ts) and never returned.
 */

const secret = (description: string) => z.string().min(1).max(10_000).describe(description);

const Fhir = {
  config: z.object({
    auth: z
      .enum(['none', 'basic', 'bearer', 'oauth2'])
      .default('none')
      .describe('How Clinflow authenticates: none, basic (username and password), bearer (a fixed token) or oauth2 (client credentials)'),
    token_url: z.url().optional().meta({ description: 'oauth2: the token endpoint (SMART backend services, Epic, Cerner, Medplum…)', 'x-auth': 'oauth2' }),
    scope: z.string().max(2000).optional().meta({ description: 'oauth2: the scopes to ask for, e.g. system/*.read', 'x-auth': 'oauth2' }),
    timeout_ms: z.number().int().min(100).max(300_000).optional().describe('Time limit of each call (default: OUTBOUND_TIMEOUT_MS)'),
  }),
  credentials: z.object({
    client_id: secret('oauth2: the client id').optional(),
    client_secret: secret('oauth2: the client secret').optional(),
    username: secret('basic: the user name').optional(),
    password: secret('basic: the password').optional(),
    token: secret('bearer: the token').optional(),
  }),
  needs: { basic: ['username', 'password'], bearer: ['token'], oauth2: ['client_id', 'client_secret'] } as Record<string, string[]>,
};

const Mllp = {
  config: z.object({
    tls: z.boolean().default(false).describe('MLLP over TLS (the peer certificate is verified)'),
    encoding: z.enum(['utf-8', 'latin1', 'ascii']).default('utf-8').describe('Character encoding of the messages'),
    ack_timeout_ms: z.number().int().min(100).max(300_000).default(10_000).describe('How long to wait for the ACK'),
  }),
  credentials: z.object({}),
  needs: {} as Record<string, string[]>,
};

const Http = {
  config: z.object({
    auth: z.enum(['none', 'basic', 'bearer', 'api-key']).default('none').describe('none, basic, bearer or an API key header'),
    header_name: z
      .string()
      .regex(/^[A-Za-z0-9-]+$/)
      .default('X-API-Key')
      .meta({ description: 'api-key: the header that carries the key', 'x-auth': 'api-key' }),
    headers: z
      .record(z.string().regex(/^[A-Za-z0-9-]+$/), z.string().max(2000))
      .default({})
      .describe('Headers sent with every call (not secret: put secrets in the credentials)'),
  }),
  credentials: z.object({
    username: secret('basic: the user name').optional(),
    password: secret('basic: the password').optional(),
    token: secret('bearer: the token').optional(),
    api_key: secret('api-key: the key').optional(),
  }),
  needs: { basic: ['username', 'password'], bearer: ['token'], 'api-key': ['api_key'] } as Record<string, string[]>,
};

const Postgres = {
  config: z.object({
    schema: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a schema name')
      .default('public')
      .describe('Schema searched first'),
  }),
  credentials: z.object({ password: secret('The database password (or give it in the connection string: it is moved here)').optional() }),
  needs: {} as Record<string, string[]>,
};

const Smtp = {
  config: z.object({
    security: z
      .enum(['starttls', 'tls', 'none'])
      .default('starttls')
      .describe(
        'starttls: upgrade to TLS after connecting (ports 587, 25; refused if the server cannot); tls: TLS from the start (465); none: a local relay only',
      ),
    from: z.string().max(320).optional().describe('Default sender address, e.g. "Clinflow <alerts@hospital.org>"'),
  }),
  credentials: z.object({
    username: secret('The user name to sign in with (leave out for a relay that needs none)').optional(),
    password: secret('The password').optional(),
  }),
  needs: {} as Record<string, string[]>,
};

export const CONNECTOR_TYPES = {
  fhir: {
    name: 'FHIR server',
    description: 'A FHIR R4 server: read, search, write and bulk export.',
    endpoint: 'The FHIR base URL, e.g. https://fhir.hospital.org/r4',
    ...Fhir,
  },
  'hl7-mllp': {
    name: 'HL7 v2 over MLLP',
    description: 'A system that receives HL7 v2 messages over MLLP (an interface engine, an EHR, a LIS).',
    endpoint: 'host:port, e.g. ie.hospital.local:2575',
    ...Mllp,
  },
  http: {
    name: 'HTTP API',
    description: 'Any HTTP API, with its base URL, headers and authentication.',
    endpoint: 'The base URL, e.g. https://api.payer.com/v1',
    ...Http,
  },
  postgres: {
    name: 'PostgreSQL',
    description: 'A PostgreSQL database (a warehouse) to read from and write rows to.',
    endpoint: 'A connection string, e.g. postgres://etl@warehouse.local:5432/clinical',
    ...Postgres,
  },
  smtp: {
    name: 'SMTP mail server',
    description: 'A mail server to send email through (alerts from an error pipeline, reports).',
    endpoint: 'host:port, e.g. smtp.hospital.org:587',
    ...Smtp,
  },
} satisfies Record<ConnectorType, unknown>;

export const TYPE_IDS = Object.keys(CONNECTOR_TYPES) as ConnectorType[];

/** The settings and credentials of `type`, checked and completed with defaults; throws a ZodError with paths. */
export function parseParts(type: ConnectorType, config: unknown, credentials: unknown) {
  const t = CONNECTOR_TYPES[type];
  const c = t.config.parse(config ?? {}) as Record<string, unknown>;
  const s = Object.fromEntries(Object.entries(t.credentials.parse(credentials ?? {})).filter(([, v]) => v !== undefined)) as Record<string, string>;
  return { config: c, credentials: s };
}

/** What the chosen authentication still lacks (after masked secrets were resolved to the stored ones). */
export function missingCredentials(type: ConnectorType, config: Record<string, unknown>, credentials: Record<string, string>): string[] {
  const needs = CONNECTOR_TYPES[type].needs[String(config.auth ?? '')] ?? [];
  const missing = needs.filter((f) => !credentials[f]).map((f) => `credentials.${f}`);
  if (type === 'fhir' && config.auth === 'oauth2' && !config.token_url) missing.unshift('config.token_url');
  return missing;
}

/**
 * The endpoint as stored, and what it implies: an MLLP `host:port` gives config.host and config.port; a
 * Postgres connection string gives up its password to the credentials. Throws a message for a bad endpoint.
 */
export function normalizeEndpoint(
  type: ConnectorType,
  endpoint: string,
): { endpoint: string; config?: Record<string, unknown>; credentials?: Record<string, string> } {
  const raw = endpoint.trim();
  if (type === 'hl7-mllp' || type === 'smtp') {
    const m = /^(?:(?:mllp|smtp):\/\/)?(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):(\d{1,5})\/?$/.exec(raw);
    const port = m ? Number(m[2]) : 0;
    if (!m || port < 1 || port > 65535)
      throw new Error(`Give the endpoint as host:port, e.g. ${type === 'smtp' ? 'smtp.hospital.org:587' : 'ie.hospital.local:2575'}`);
    return { endpoint: `${m[1]}:${port}`, config: { host: m[1]!.replace(/^\[|\]$/g, ''), port } };
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(
      type === 'postgres'
        ? 'Give a connection string, e.g. postgres://etl@warehouse.local:5432/clinical'
        : 'Give a full URL, e.g. https://fhir.hospital.org/r4',
    );
  }
  if (type === 'postgres') {
    if (!/^postgres(ql)?:$/.test(url.protocol)) throw new Error('A connection string starts with postgres://');
    const password = url.password ? decodeURIComponent(url.password) : undefined;
    url.password = '';
    return { endpoint: url.toString(), ...(password ? { credentials: { password } } : {}) };
  }
  if (!/^https?:$/.test(url.protocol)) throw new Error('The URL must start with https:// (or http://)');
  if (url.username || url.password) throw new Error("Put credentials in the connector's credentials, not in the URL");
  return { endpoint: raw.replace(/\/+$/, '') };
}

/** A field's name in words for a form label: `token_url` → "Token URL", `client_id` → "Client ID". */
export function fieldLabel(name: string): string {
  const words = name.split('_').map((w) => (['url', 'id', 'tls', 'ms'].includes(w) ? w.toUpperCase() : w));
  const text = words.join(' ').replace(/ MS$/, ' (ms)');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** JSON Schema of a zod object, each property titled for the form built from it. */
function titled(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input' }) as { properties?: Record<string, Record<string, unknown>> };
  for (const [name, p] of Object.entries(json.properties ?? {})) p.title ??= fieldLabel(name);
  return json as Record<string, unknown>;
}

/** Every type with the JSON Schema of its settings and credentials. */
export function connectorTypes() {
  return {
    types: TYPE_IDS.map((type) => {
      const t = CONNECTOR_TYPES[type];
      return {
        type,
        name: t.name,
        description: t.description,
        endpoint: t.endpoint,
        config_schema: titled(t.config),
        credentials_schema: titled(t.credentials),
        auth_requires: t.needs,
      };
    }),
  };
}
