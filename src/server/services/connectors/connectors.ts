import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { ConnectorType } from '@/engine/node-type';
import { connectors, pipelines, pipelineVersions } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { ServiceContext } from '../context';
import { isUuid } from '../context';
import { isMasked, mask, openSecrets, sealedUnderOldKey, sealSecrets } from '@/server/secrets';
import { CONNECTOR_TYPES, missingCredentials, normalizeEndpoint, parseParts } from './types';
import { forgetConnectors } from './handle';

type Row = typeof connectors.$inferSelect;

export interface ConnectorInput {
  name: string;
  type: ConnectorType;
  endpoint: string;
  config?: Record<string, unknown>;
  credentials?: Record<string, unknown>;
}

export type ConnectorPatch = Partial<Omit<ConnectorInput, 'type'>>;

/** A connector as the API shows it: credentials masked (`"client_secret": "••••1234"`), never in clear. */
export function connectorView(row: Row) {
  const secrets = openSecrets(row.orgId, row.id, row.secrets);
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    endpoint: row.endpoint,
    config: row.config,
    credentials: Object.fromEntries(Object.entries(secrets).map(([k, v]) => [k, mask(v)])),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function invalid(details: { path: string; message: string }[]): never {
  throw new AppError('VALIDATION_FAILED', `The connector is not valid: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}.`, details);
}

/** Settings and credentials checked for the type; masked credentials resolved to the stored ones. */
function prepare(type: ConnectorType, endpoint: string, config: unknown, credentials: Record<string, unknown>, stored: Record<string, string>) {
  let normal: ReturnType<typeof normalizeEndpoint>;
  try {
    normal = normalizeEndpoint(type, endpoint);
  } catch (e) {
    return invalid([{ path: 'endpoint', message: (e as Error).message }]);
  }
  // a masked value sent back (the form shows what GET gave) keeps the stored secret; null removes one
  const given: Record<string, unknown> = { ...stored };
  for (const [k, v] of Object.entries(credentials)) {
    if (v === null || v === '') delete given[k];
    else if (!isMasked(v)) given[k] = v;
  }
  let parts: ReturnType<typeof parseParts>;
  try {
    parts = parseParts(type, config, { ...given, ...normal.credentials });
    // what the endpoint implies (an MLLP host and port) is the endpoint's, not a setting of its own
    Object.assign(parts.config, normal.config);
  } catch (e) {
    if (e instanceof z.ZodError) {
      const which = (i: z.core.$ZodIssue) => (i.path.length ? i.path.join('.') : '');
      return invalid(
        e.issues.map((i) => ({
          path: `${i.path[0] && i.path[0] in CONNECTOR_TYPES[type].credentials.shape ? 'credentials' : 'config'}.${which(i)}`,
          message: i.message,
        })),
      );
    }
    throw e;
  }
  const missing = missingCredentials(type, parts.config, parts.credentials);
  if (missing.length) invalid(missing.map((path) => ({ path, message: `needed for ${String(parts.config.auth)} authentication` })));
  return { endpoint: normal.endpoint, ...parts };
}

function nameTaken(e: unknown): boolean {
  const cause = (e as { cause?: { code?: string } })?.cause ?? (e as { code?: string });
  return cause?.code === '23505';
}

async function findRow(ctx: ServiceContext, id: string): Promise<Row> {
  const [row] = isUuid(id)
    ? await ctx.db
        .select()
        .from(connectors)
        .where(and(eq(connectors.id, id), eq(connectors.orgId, ctx.principal.orgId)))
    : [];
  if (!row) throw new AppError('CONNECTOR_NOT_FOUND', `No connector ${id} in this organization.`);
  return row;
}

export async function listConnectors(ctx: ServiceContext, input: { type?: ConnectorType; limit: number; offset: number }) {
  const where: SQL[] = [eq(connectors.orgId, ctx.principal.orgId)];
  if (input.type) where.push(eq(connectors.type, input.type));
  const [rows, total] = await Promise.all([
    ctx.db
      .select()
      .from(connectors)
      .where(and(...where))
      .orderBy(asc(connectors.name))
      .limit(input.limit)
      .offset(input.offset),
    ctx.db
      .select({ n: count() })
      .from(connectors)
      .where(and(...where)),
  ]);
  return { connectors: rows.map(connectorView), total_count: total[0]?.n ?? 0 };
}

export async function getConnector(ctx: ServiceContext, id: string) {
  return connectorView(await findRow(ctx, id));
}

export async function createConnector(ctx: ServiceContext, input: ConnectorInput) {
  const ready = prepare(input.type, input.endpoint, input.config ?? {}, input.credentials ?? {}, {});
  const id = randomUUID();
  try {
    const [row] = await ctx.db
      .insert(connectors)
      .values({
        id,
        orgId: ctx.principal.orgId,
        name: input.name,
        type: input.type,
        endpoint: ready.endpoint,
        config: ready.config,
        secrets: sealSecrets(ctx.principal.orgId, id, ready.credentials),
        createdBy: ctx.principal.userId ?? ctx.principal.keyId ?? null,
      })
      .returning();
    return connectorView(row!);
  } catch (e) {
    if (nameTaken(e)) throw new AppError('CONNECTOR_NAME_TAKEN', `A connector named "${input.name}" exists already: pick another name.`);
    throw e;
  }
}

/** Changes what is given; credentials not sent, or sent back masked, stay as they were; the type stays. */
export async function updateConnector(ctx: ServiceContext, id: string, patch: ConnectorPatch) {
  const row = await findRow(ctx, id);
  const stored = openSecrets(row.orgId, row.id, row.secrets);
  const ready = prepare(row.type, patch.endpoint ?? row.endpoint, patch.config ?? row.config, patch.credentials ?? {}, stored);
  try {
    const [updated] = await ctx.db
      .update(connectors)
      .set({
        name: patch.name ?? row.name,
        endpoint: ready.endpoint,
        config: ready.config,
        // written again under the current key: saving a connector completes a key rotation for it
        secrets: sealSecrets(row.orgId, row.id, ready.credentials),
        updatedAt: new Date(),
      })
      .where(and(eq(connectors.id, row.id), eq(connectors.orgId, ctx.principal.orgId)))
      .returning();
    forgetConnectors(ctx.db, ctx.principal.orgId);
    return connectorView(updated!);
  } catch (e) {
    if (nameTaken(e)) throw new AppError('CONNECTOR_NAME_TAKEN', `A connector named "${patch.name}" exists already: pick another name.`);
    throw e;
  }
}

/** Whether a definition's nodes (for-each bodies included) name the connector by id or name. */
function usesConnector(value: unknown, refs: Set<string>): boolean {
  if (Array.isArray(value)) return value.some((v) => usesConnector(v, refs));
  if (!value || typeof value !== 'object') return false;
  return Object.entries(value).some(([k, v]) => (k === 'connector' && typeof v === 'string' && refs.has(v)) || usesConnector(v, refs));
}

/** Deletes a connector no deployed pipeline's live version uses (409 CONNECTOR_IN_USE naming them otherwise). */
export async function deleteConnector(ctx: ServiceContext, id: string) {
  const row = await findRow(ctx, id);
  const deployed = await ctx.db
    // the deployed version is what runs (a version saved since is not live)
    .select({ id: pipelines.id, name: pipelines.name, definition: pipelineVersions.definition })
    .from(pipelines)
    .innerJoin(pipelineVersions, and(eq(pipelineVersions.pipelineId, pipelines.id), eq(pipelineVersions.version, pipelines.deployedVersion)))
    .where(and(eq(pipelines.orgId, ctx.principal.orgId), eq(pipelines.status, 'deployed')));
  const users = deployed.filter((p) => usesConnector(p.definition.nodes, new Set([row.id, row.name])));
  if (users.length) {
    const many = users.length > 1;
    const names = users.map((p) => `"${p.name}"`).join(', ');
    throw new AppError(
      'CONNECTOR_IN_USE',
      `Connector "${row.name}" is used by deployed pipeline${many ? 's' : ''} ${names}: ` +
        `undeploy ${many ? 'them' : 'it'}, or deploy ${many ? 'versions' : 'a version'} that no longer use${many ? '' : 's'} it, first.`,
      { pipelines: users.map((p) => ({ id: p.id, name: p.name })) },
    );
  }
  await ctx.db.delete(connectors).where(and(eq(connectors.id, row.id), eq(connectors.orgId, ctx.principal.orgId)));
  forgetConnectors(ctx.db, ctx.principal.orgId);
}

/**
 * Re-encrypts every connector written under an older key (after CONNECTOR_KEY rotation). Envelopes under a key
 * this process does not have are left as they are and counted, so one forgotten key does not stop the rest.
 */
export async function reencryptAll(ctx: Pick<ServiceContext, 'db'>): Promise<{ reencrypted: number; unreadable: number }> {
  const rows = await ctx.db.select().from(connectors);
  let reencrypted = 0;
  let unreadable = 0;
  for (const row of rows) {
    if (!sealedUnderOldKey(row.secrets)) continue;
    let secrets: Record<string, string>;
    try {
      secrets = openSecrets(row.orgId, row.id, row.secrets);
    } catch {
      unreadable++;
      continue;
    }
    await ctx.db
      .update(connectors)
      .set({ secrets: sealSecrets(row.orgId, row.id, secrets) })
      .where(eq(connectors.id, row.id));
    reencrypted++;
  }
  return { reencrypted, unreadable };
}
