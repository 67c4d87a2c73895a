import { z } from 'zod';
import { TYPE_IDS } from '@/server/services/connectors/types';

export const TAGS = ['Connectors'];

const Type = z.enum(TYPE_IDS as [string, ...string[]]).describe('fhir, hl7-mllp, http, postgres or smtp (GET /api/connectors/types)');
const NoNul = (s: string) => !s.includes('\u0000');

export const ConnectorId = z.object({ id: z.string().describe('Connector UUID') });

export const Connector = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  endpoint: z.string().describe('URL, host:port, or connection string (without its password)'),
  config: z.record(z.string(), z.unknown()).describe("The type's settings"),
  credentials: z.record(z.string(), z.string()).describe('The credentials, masked: "••••1234" (never returned in clear)'),
  created_at: z.string(),
  updated_at: z.string(),
});

const Name = z.string().trim().min(1, 'name must not be empty').max(200).refine(NoNul, 'must not contain the NUL character');
const Credentials = z
  .record(z.string(), z.string().max(10_000).refine(NoNul, 'must not contain the NUL character').nullable())
  .describe(
    [
      'Secrets by name (client_id, client_secret, username, password, token, api_key…), stored',
      'encrypted. A masked value sent back, or a field left out, keeps the stored one; null removes it',
    ].join(' '),
  );
const Config = z.record(z.string(), z.unknown()).describe("The type's settings (its config_schema in GET /api/connectors/types)");

export const CreateConnectorInput = z.object({
  name: Name,
  type: Type,
  endpoint: z.string().trim().min(1, 'endpoint must not be empty').max(2000),
  config: Config.optional(),
  credentials: Credentials.optional(),
});

export const UpdateConnectorInput = ConnectorId.extend({
  name: Name.optional(),
  endpoint: z.string().trim().min(1).max(2000).optional(),
  config: Config.optional(),
  credentials: Credentials.optional(),
});

export const ListConnectorsInput = z.object({
  type: Type.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

export const ConnectorList = z.object({ connectors: z.array(Connector), total_count: z.number().int() });

export const ConnectorTypes = z.object({
  types: z.array(
    z.object({
      type: z.string(),
      name: z.string(),
      description: z.string(),
      endpoint: z.string().describe('What the endpoint is for this type'),
      config_schema: z.record(z.string(), z.unknown()),
      credentials_schema: z.record(z.string(), z.unknown()),
      auth_requires: z.record(z.string(), z.array(z.string())).describe('For each value of config.auth, the credentials it needs'),
    }),
  ),
});

export const TestResult = z.object({
  connector_id: z.string(),
  tested_at: z.string(),
  ok: z.boolean(),
  checks: z.array(z.object({ name: z.string(), ok: z.boolean(), detail: z.string(), ms: z.number().int() })),
});
