import type { z } from 'zod';

/**
 * What the database cannot store, refused at the edge with the field named rather than failing the write (a 500):
 * text columns refuse the NUL character; jsonb also refuses a UTF-16 surrogate without its partner.
 */
export const NO_NUL = 'must not contain the NUL character (\\u0000)';
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a JSON value holds, in a key or a string, something jsonb refuses. */
export function holdsUnstorable(v: unknown): boolean {
  if (typeof v === 'string') return UNSTORABLE.test(v);
  if (Array.isArray(v)) return v.some(holdsUnstorable);
  if (v && typeof v === 'object') return Object.entries(v).some(([k, x]) => UNSTORABLE.test(k) || holdsUnstorable(x));
  return false;
}

/** A JSON field stored as jsonb: refused (400) when it holds NUL or a lone surrogate. */
export function storable<T extends z.ZodType>(schema: T): T {
  return schema.refine((v) => !holdsUnstorable(v), `${NO_NUL.replace('must not contain', 'strings must not contain')} or a lone UTF-16 surrogate`);
}
