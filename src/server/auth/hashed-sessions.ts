import { createHash } from 'node:crypto';
import type { BetterAuthOptions } from 'better-auth';
import type { DBAdapter, DBAdapterInstance, Where } from '@better-auth/core/db/adapter';

/** SHA-256 of a session token, as stored (the token is 190+ bits of randomness: nothing to brute-force). */
export const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

type Row = Record<string, unknown> | null;

/** A session query's `token` conditions hashed; the raw tokens asked for, by hash, to put back in the answers. */
function hashedWhere(where: Where[] | undefined, raw: Map<string, string>): Where[] | undefined {
  return where?.map((w) => {
    if (w.field !== 'token') return w;
    const hash = (v: string) => {
      const h = hashToken(v);
      raw.set(h, v);
      return h;
    };
    if (Array.isArray(w.value)) return { ...w, value: (w.value as string[]).map((v) => hash(String(v))) };
    return typeof w.value === 'string' ? { ...w, value: hash(w.value) } : w;
  });
}

function restore<T>(row: T, raw: Map<string, string>): T {
  const r = row as Row;
  if (r && typeof r.token === 'string' && raw.has(r.token)) return { ...r, token: raw.get(r.token) } as T;
  return row;
}

function wrap(a: DBAdapter): DBAdapter {
  const isSession = (model: string) => model === 'session';
  return {
    ...a,
    async create(q) {
      const data = q.data as Record<string, unknown>;
      if (!isSession(q.model) || typeof data.token !== 'string') return a.create(q);
      const token = data.token;
      // better-auth's adapter methods are generic in the model's row type, which a wrapper over every model cannot name
      const row = await a.create({ ...q, data: { ...data, token: hashToken(token) } as never });
      // the same: the row given back is of that generic type
      return (row && typeof row === 'object' ? { ...(row as object), token } : row) as never;
    },
    async findOne(q) {
      if (!isSession(q.model)) return a.findOne(q);
      const raw = new Map<string, string>();
      return restore(await a.findOne({ ...q, where: hashedWhere(q.where, raw)! }), raw);
    },
    async findMany(q) {
      if (!isSession(q.model)) return a.findMany(q);
      const raw = new Map<string, string>();
      return (await a.findMany({ ...q, where: hashedWhere(q.where, raw) })).map((r) => restore(r, raw));
    },
    count: (q) => (isSession(q.model) ? a.count({ ...q, where: hashedWhere(q.where, new Map()) }) : a.count(q)),
    async update(q) {
      if (!isSession(q.model)) return a.update(q);
      const raw = new Map<string, string>();
      const update = typeof q.update.token === 'string' ? { ...q.update, token: hashToken(q.update.token) } : q.update;
      return restore(await a.update({ ...q, where: hashedWhere(q.where, raw)!, update }), raw);
    },
    updateMany: (q) => (isSession(q.model) ? a.updateMany({ ...q, where: hashedWhere(q.where, new Map())! }) : a.updateMany(q)),
    delete: (q) => (isSession(q.model) ? a.delete({ ...q, where: hashedWhere(q.where, new Map())! }) : a.delete(q)),
    deleteMany: (q) => (isSession(q.model) ? a.deleteMany({ ...q, where: hashedWhere(q.where, new Map())! }) : a.deleteMany(q)),
    consumeOne: (q) => (isSession(q.model) ? a.consumeOne({ ...q, where: hashedWhere(q.where, new Map())! }) : a.consumeOne(q)),
    // the transaction callback is generic in its adapter's type, which this wrapper cannot name either
    ...(a.transaction
      ? { transaction: (cb) => (a.transaction as Exclude<DBAdapter['transaction'], false | undefined>)((trx) => cb(wrap(trx as DBAdapter) as never)) }
      : {}),
  } as DBAdapter;
}

/**
 * better-auth's adapter with session tokens stored as their SHA-256 (issue 14 #5): the database holds no usable
 * session, while cookies keep carrying the raw token (hashed on every lookup, put back in what is returned).
 */
export function withHashedSessionTokens(adapter: DBAdapterInstance): DBAdapterInstance {
  return (options: BetterAuthOptions) => wrap(adapter(options));
}
