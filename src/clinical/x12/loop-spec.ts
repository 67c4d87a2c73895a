/**
 * How loops are recognised: a loop of an implementation guide starts with a trigger segment (optionally with a
 * qualifier in one of its elements: `NM1` with `NM101` = `85`, `HL` with `HL03` = `22`) and sits inside a parent
 * loop (`""` is the transaction itself). The tables (loop-specs-837.ts, loop-specs-other.ts) follow the ASC X12N
 * guides' loop ids and names, cross-checked against LinuxForHealth/x12's loop models.
 */
export interface LoopDef {
  id: string;
  name: string;
  parents: string[];
  segment: string;
  /** Position of the qualifier element (1-based) and the values that start this loop. */
  element?: number;
  values?: string[];
  /** A repeated trigger stays in the open loop of this id instead of starting a new one (835 PLB). */
  merge?: boolean;
}

/** `loop('2010AA', 'Billing provider name', ['2000A'], 'NM1', 1, '85')` */
export function loop(id: string, name: string, parents: string | string[], segment: string, element?: number, values?: string | string[]): LoopDef {
  return {
    id,
    name,
    parents: Array.isArray(parents) ? parents : [parents],
    segment,
    ...(element ? { element, values: Array.isArray(values) ? values : values ? [values] : [] } : {}),
  };
}

/** An `NM1` name loop keyed by its entity identifier code (NM101). */
export function nm1(id: string, name: string, parents: string | string[], ...codes: string[]): LoopDef {
  return loop(id, name, parents, 'NM1', codes.length ? 1 : undefined, codes);
}

/** An `HL` hierarchical level keyed by its level code (HL03). */
export function hl(id: string, name: string, parents: string | string[], code: string): LoopDef {
  return loop(id, name, parents, 'HL', 3, code);
}
