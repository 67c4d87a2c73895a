import type { executionNodes, RecordRefs, SlotRef } from '@/server/db/schema';
import type { NodeRecord } from './node-records';

/**
 * A run's values stored once. A node's input is, most often, the very value its upstream node gave (the
 * engine passes it on), and a node that lets its input through (fhir-validate's `valid`) gives it back as an
 * output: stored in full at every slot, 1 MB through five nodes became about 12 MB of JSON per execution.
 * A value met again is stored as a reference to the slot where it was first stored in full (by identity for
 * objects, by content for long strings), so within a run a reference is one hop: the slot it names holds the value.
 */

type Side = 'inputs' | 'outputs';
const SIDES: Side[] = ['inputs', 'outputs'];
/** Shorter strings are stored where they are: a reference would save nothing. */
const MIN_STRING = 256;

/** What identifies a value for sharing: the object itself, a long string's text; undefined when not shared. */
function identity(v: unknown): unknown {
  if (v !== null && typeof v === 'object') return Object.keys(v).length > 0 ? v : undefined;
  return typeof v === 'string' && v.length >= MIN_STRING ? v : undefined;
}

/** A record as stored: the values found elsewhere left out of inputs and outputs, and named in `refs`. */
export interface CompactRecord extends NodeRecord {
  refs: RecordRefs | null;
}

/**
 * The slots of one execution stored in full so far, which later records may refer to. A batch's slots are
 * offered to later batches only once the batch is stored (`commit`): a reference must never name a slot
 * that a failed write left out.
 */
export class SlotRegistry {
  private readonly stored = new Map<unknown, SlotRef>();

  /** `records` as they are to be written together: a value stored in full once, referred to elsewhere. */
  compact(records: NodeRecord[]): { records: CompactRecord[]; commit: () => void } {
    const batch = new Map<unknown, SlotRef>();
    const out = records.map((record) => {
      const refs: RecordRefs = {};
      const values: Pick<NodeRecord, Side> = { inputs: record.inputs, outputs: record.outputs };
      for (const side of SIDES) {
        for (const [port, value] of Object.entries(record[side])) {
          const id = identity(value);
          if (id === undefined) continue;
          const own: SlotRef = [record.node_id, side, port];
          const found = this.stored.get(id) ?? batch.get(id);
          if (!found) batch.set(id, own);
          else if (found[0] !== own[0] || found[1] !== side || found[2] !== port) {
            if (values[side] === record[side]) values[side] = { ...record[side] };
            delete values[side][port];
            (refs[side] ??= {})[port] = found;
          }
        }
      }
      const compacted = refs.inputs || refs.outputs;
      return { ...record, ...values, refs: compacted ? refs : null };
    });
    return { records: out, commit: () => batch.forEach((ref, id) => this.stored.set(id, ref)) };
  }
}

type NodeRow = typeof executionNodes.$inferSelect;

/**
 * An execution's node rows with every reference replaced by the value it names (rows without any unchanged). A
 * reference written by one run names a slot stored in full then; a later run (a resumed one) may have rewritten
 * that slot as a reference in turn, so references are followed until a value (never round in a circle).
 */
export function resolveRefs(rows: NodeRow[]): NodeRow[] {
  if (!rows.some((r) => r.refs)) return rows;
  const byNode = new Map(rows.map((r) => [r.nodeId, r]));
  const valueAt = ([node, side, port]: SlotRef, seen = new Set<string>()): unknown => {
    const row = byNode.get(node);
    const further = row?.refs?.[side]?.[port];
    const at = `${node}\u0000${side}\u0000${port}`;
    if (!further) return row?.[side]?.[port];
    if (seen.has(at)) return undefined;
    seen.add(at);
    return valueAt(further, seen);
  };
  return rows.map((row) => {
    if (!row.refs) return row;
    const resolved = { ...row, inputs: { ...row.inputs }, outputs: { ...row.outputs }, refs: null };
    for (const side of SIDES) for (const [port, ref] of Object.entries(row.refs[side] ?? {})) resolved[side][port] = valueAt(ref);
    return resolved;
  });
}
