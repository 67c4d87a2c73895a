import { sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { auditEvents, apiKeys, users } from '@/server/db/schema';
import type { ServiceContext } from '../context';

export type AuditDetail = Record<string, string | number | boolean | null>;

/** What happened to which object; who and from where come from the caller's context. */
export interface AuditEntry {
  /** `<object>.<verb>`: execution.read, pipeline.deploy, key.revoke, member.role, session.sign-in … */
  action: string;
  outcome?: 'success' | 'failure';
  objectType?: string;
  objectId?: string | null;
  objectName?: string | null;
  /** Small facts without secrets or payloads (ids, names, roles, a reason). */
  detail?: AuditDetail;
}

/** Who did it, when the caller is not an authenticated principal (sign-in, the system). */
export interface AuditActor {
  orgId: string | null;
  type: 'user' | 'api-key' | 'system';
  id?: string | null;
  name?: string | null;
  address?: string | null;
  channel?: string | null;
}

/**
 * Appends one entry for an authenticated caller: the user or key of `ctx.principal`, its organization and address.
 * The actor's name (the user's email, the key's name) is read in the same statement, as it is now, so the entry
 * still says who it was after the user or key is gone. Awaited by the caller: a read of patient data that could not
 * be recorded fails rather than goes unrecorded.
 */
export async function recordAudit(ctx: Pick<ServiceContext, 'db' | 'principal' | 'channel'>, entry: AuditEntry): Promise<string> {
  const p = ctx.principal;
  const isKey = p.kind === 'api-key';
  const actorId = (isKey ? p.keyId : p.userId) ?? null;
  const actorName = !actorId
    ? null
    : isKey
      ? sql`(select ${apiKeys.name} from ${apiKeys} where ${apiKeys.id} = ${actorId})`
      : sql`(select ${users.email} from ${users} where ${users.id} = ${actorId})`;
  return appendAudit(ctx.db, { orgId: p.orgId, type: isKey ? 'api-key' : 'user', id: actorId, address: p.address, channel: ctx.channel }, entry, actorName);
}

/** Appends one entry for an actor named by the caller (sign-in attempts, the system); resolves with the entry's id. */
export async function appendAudit(
  db: Db,
  actor: AuditActor,
  entry: AuditEntry,
  actorName: ReturnType<typeof sql> | string | null = actor.name ?? null,
): Promise<string> {
  const [row] = await db
    .insert(auditEvents)
    .values({
      orgId: actor.orgId,
      actorType: actor.type,
      actorId: actor.id ?? null,
      actorName,
      action: entry.action,
      outcome: entry.outcome ?? 'success',
      objectType: entry.objectType ?? entry.action.split('.')[0] ?? null,
      objectId: entry.objectId ?? null,
      objectName: entry.objectName ?? null,
      address: actor.address ?? null,
      channel: actor.channel ?? null,
      detail: entry.detail ?? null,
    })
    .returning({ id: auditEvents.id });
  return row!.id;
}
