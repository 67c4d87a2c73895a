import { z } from 'zod';
import { flattenLoops, transactionKind } from './loops';
import type { X12Interchange, X12Loop } from './types';

const Element = z.union([z.string(), z.array(z.string()), z.array(z.array(z.string()))]);
const Segment = z.object({ id: z.string().regex(/^[A-Z][A-Z0-9]{1,2}$/, 'a segment id is 2 or 3 capital letters or digits') }).catchall(Element);

const Loop: z.ZodType<X12Loop> = z.object({
  loop: z.string(),
  name: z.string(),
  segments: z.array(Segment),
  get loops() {
    return z.array(Loop);
  },
}) as unknown as z.ZodType<X12Loop>; // a recursive schema: zod cannot infer its own type

const Transaction = z.object({
  ST: Segment,
  set: z.string().optional(),
  guide: z.string().optional(),
  kind: z.string().optional(),
  segments: z.array(Segment),
  loops: z.array(Loop),
  SE: Segment.optional(),
});

const Interchange = z.object({
  separators: z.object({
    element: z.string().length(1),
    component: z.string().length(1),
    repetition: z.string().max(1),
    segment: z.string().length(1),
    line: z.string(),
  }),
  ISA: Segment,
  groups: z.array(z.object({ GS: Segment, transactions: z.array(Transaction), GE: Segment.optional() })),
  IEA: Segment.optional(),
  warnings: z.array(z.unknown()).optional(),
});

/**
 * Reads a value that should be an `x12-interchange` (as x12-parse makes it, or a JSON of that shape built by
 * hand or by a transform), filling in `set`, `guide` and `kind` of transactions when left out. Throws an Error
 * naming the first paths that do not fit.
 */
export function readInterchange(value: unknown): X12Interchange {
  const parsed = Interchange.safeParse(value);
  if (!parsed.success) {
    const where = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new Error(`Not an x12-interchange value (parse X12 text with x12-parse first): ${where.join('; ')}`);
  }
  const ic = value as X12Interchange;
  // a shallow copy with what is missing filled in: the caller's value is left as it is
  return {
    ...ic,
    groups: ic.groups.map((group) => ({
      ...group,
      transactions: group.transactions.map((tx) => {
        const set = tx.set || String(tx.ST.ST01 ?? '');
        const guide = tx.guide || String(tx.ST.ST03 ?? '') || String(group.GS.GS08 ?? '');
        const kind = tx.kind ?? transactionKind(set, guide, flattenLoops(tx)).kind;
        return { ...tx, set, guide, kind };
      }),
    })),
    warnings: ic.warnings ?? [],
  };
}
