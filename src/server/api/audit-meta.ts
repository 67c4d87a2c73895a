import type { Principal } from '@/server/auth/principal';
import type { Channel } from '@/server/services/context';
import type { Db } from '@/server/db/client';
import { recordAudit, type AuditDetail } from '@/server/services/audit/record';

type Loose = Record<string, unknown> | undefined;

/**
 * What a procedure's successful call adds to the audit trail (meta `audit`): the action, and where the object's id,
 * name and facts are. By default the id is the output's or input's `id` (else `execution_id`, `user_id`, `email`) and
 * the name the output's or input's `name` — never anything else of either, so no secret (a new key, credentials)
 * and no payload reaches the trail.
 */
export interface AuditMeta {
  action: string;
  objectType?: string;
  /** Where the object's id is, when not in the default places (a retry names the run it retried). */
  id?: (input: Loose, output: Loose) => unknown;
  detail?: (input: Loose, output: Loose) => AuditDetail;
  /** A call that changed nothing and is not recorded (a bulk reprocess's dry run only counts). */
  skip?: (input: Loose, output: Loose) => boolean;
}

const ID_FIELDS = ['id', 'execution_id', 'user_id', 'email'] as const;

function text(v: unknown): string | undefined {
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
}

function objectId(input: Loose, output: Loose): string | null {
  for (const f of ID_FIELDS) {
    const v = text(output?.[f]) ?? text(input?.[f]);
    if (v) return v;
  }
  return null;
}

/** Records a procedure's call after it succeeded (the transport-neutral recorder does the writing). */
export async function auditCall(
  ctx: { db: Db; principal: Principal | null; channel: Channel },
  meta: AuditMeta,
  rawInput: unknown,
  output: unknown,
): Promise<void> {
  if (!ctx.principal) return;
  const input = rawInput && typeof rawInput === 'object' ? (rawInput as Record<string, unknown>) : undefined;
  const out = output && typeof output === 'object' ? (output as Record<string, unknown>) : undefined;
  if (meta.skip?.(input, out)) return;
  await recordAudit(
    { db: ctx.db, principal: ctx.principal, channel: ctx.channel },
    {
      action: meta.action,
      objectType: meta.objectType,
      objectId: (meta.id ? text(meta.id(input, out)) : undefined) ?? objectId(input, out),
      objectName: text(out?.name) ?? text(input?.name) ?? null,
      detail: meta.detail?.(input, out),
    },
  );
}
