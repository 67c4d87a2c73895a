import { el } from './elements';
import type { LoopDef } from './loop-spec';
import { LOOPS_837I_4010, LOOPS_837I_5010, LOOPS_837P_4010, LOOPS_837P_5010 } from './loop-specs-837';
import { LOOPS_270, LOOPS_271, LOOPS_276, LOOPS_277, LOOPS_834, LOOPS_835 } from './loop-specs-other';
import type { X12Loop, X12Segment } from './types';

export interface TransactionKind {
  kind: string;
  defs: LoopDef[];
}

const BY_SET: Record<string, LoopDef[]> = { '835': LOOPS_835, '834': LOOPS_834, '270': LOOPS_270, '271': LOOPS_271, '276': LOOPS_276, '277': LOOPS_277 };

/**
 * Which loop map a transaction set is read with: ST01 and the guide (ST03, else GS08). An 837 is professional
 * (X222, X098) or institutional (X223, X096); when the guide does not say, SV2 or CL1 segments mean institutional.
 */
export function transactionKind(set: string, guide: string, segments: X12Segment[]): TransactionKind {
  if (set === '837') {
    const v4010 = guide.startsWith('004010');
    const institutional = /X223|X096/.test(guide) || (!/X222|X098/.test(guide) && segments.some((s) => s.id === 'SV2' || s.id === 'CL1'));
    if (institutional) return { kind: '837I', defs: v4010 ? LOOPS_837I_4010 : LOOPS_837I_5010 };
    if (/X224|X097/.test(guide)) return { kind: '', defs: [] }; // dental: no loop map yet
    return { kind: '837P', defs: v4010 ? LOOPS_837P_4010 : LOOPS_837P_5010 };
  }
  const defs = BY_SET[set];
  return defs ? { kind: set, defs } : { kind: '', defs: [] };
}

const childrenCache = new WeakMap<LoopDef[], Map<string, LoopDef[]>>();

function childrenOf(defs: LoopDef[]): Map<string, LoopDef[]> {
  let map = childrenCache.get(defs);
  if (!map) {
    map = new Map();
    for (const d of defs) for (const p of d.parents) map.set(p, [...(map.get(p) ?? []), d]);
    childrenCache.set(defs, map);
  }
  return map;
}

function triggers(def: LoopDef, segment: X12Segment): boolean {
  if (def.segment !== segment.id) return false;
  if (!def.element) return true;
  return (def.values ?? []).includes(el(segment, def.element, 1));
}

/**
 * Groups a transaction's segments (between ST and SE) into loops. For each segment, the open loops are tried
 * from the innermost out: the first whose child loop the segment starts closes the loops inside it and opens
 * that child; a segment that starts no loop belongs to the innermost open loop. Segments only ever go to the
 * innermost loop, so a loop's own segments precede its child loops and the wire order is kept exactly.
 */
export function buildLoops(segments: X12Segment[], defs: LoopDef[]): { segments: X12Segment[]; loops: X12Loop[] } {
  const root: X12Loop = { loop: '', name: '', segments: [], loops: [] };
  const stack: X12Loop[] = [root];
  const children = childrenOf(defs);
  for (const segment of segments) {
    let placed = false;
    for (let i = stack.length - 1; i >= 0 && !placed; i--) {
      const def = (children.get(stack[i]!.loop) ?? []).find((d) => triggers(d, segment));
      if (!def) continue;
      const open = stack[i + 1];
      if (def.merge && open?.loop === def.id) {
        stack.length = i + 2;
        open.segments.push(segment);
      } else {
        const created: X12Loop = { loop: def.id, name: def.name, segments: [segment], loops: [] };
        stack.length = i + 1;
        stack[i]!.loops.push(created);
        stack.push(created);
      }
      placed = true;
    }
    if (!placed) stack[stack.length - 1]!.segments.push(segment);
  }
  return { segments: root.segments, loops: root.loops };
}

/** The segments of a loop tree in wire order. */
export function flattenLoops(node: { segments: X12Segment[]; loops: X12Loop[] }, out: X12Segment[] = []): X12Segment[] {
  for (const s of node.segments ?? []) out.push(s);
  for (const l of node.loops ?? []) flattenLoops(l, out);
  return out;
}

/** Every loop with this id under a node, depth first (in wire order). */
export function findLoops(node: { loops: X12Loop[] }, id: string, out: X12Loop[] = []): X12Loop[] {
  for (const l of node.loops ?? []) {
    if (l.loop === id) out.push(l);
    findLoops(l, id, out);
  }
  return out;
}

/** The first child loop with one of these ids (directly under the node). */
export function childLoop(node: { loops: X12Loop[] } | undefined, ...ids: string[]): X12Loop | undefined {
  return node?.loops.find((l) => ids.includes(l.loop));
}

/** The node's own segments with this id (and qualifier in element 1, when given). */
export function segmentsOf(node: { segments: X12Segment[] } | undefined, id: string, qualifier?: string | string[]): X12Segment[] {
  const wanted = qualifier === undefined ? undefined : Array.isArray(qualifier) ? qualifier : [qualifier];
  return (node?.segments ?? []).filter((s) => s.id === id && (!wanted || wanted.includes(el(s, 1, 1))));
}

export function segmentOf(node: { segments: X12Segment[] } | undefined, id: string, qualifier?: string | string[]): X12Segment | undefined {
  return segmentsOf(node, id, qualifier)[0];
}
