import { decode } from '@/clinical/hl7v2/escape';
import type { Hl7v2Delimiters, Hl7v2Message, Hl7v2Segment } from '@/clinical/hl7v2/types';

/**
 * Reading a segment's fields as the mappers need them: a field (one repetition) is a list of components, each
 * a list of sub-components, decoded (`\T\` → `&`). Empty parts read as `''`.
 */
export class Field {
  constructor(
    private readonly parts: string[][],
    readonly d: Hl7v2Delimiters,
  ) {}

  /** Component `i` (1-based), its first sub-component. */
  c(i: number): string {
    return this.parts[i - 1]?.[0] ?? '';
  }

  /** Sub-component `j` of component `i`. */
  s(i: number, j: number): string {
    return this.parts[i - 1]?.[j - 1] ?? '';
  }

  /** Component `i` as a field of its own (its sub-components become components): HD inside CX, CWE inside XCN. */
  sub(i: number): Field {
    return new Field(
      (this.parts[i - 1] ?? []).map((x) => [x]),
      this.d,
    );
  }

  get empty(): boolean {
    return this.parts.every((c) => c.every((x) => x === ''));
  }

  /** The whole repetition as text, components joined by `^` (used where HL7 sends free text). */
  text(): string {
    return this.parts
      .map((c) => c.join(this.d.subcomponent))
      .join(this.d.component)
      .replace(/\^+$/, '');
  }
}

/** Whether a repetition holds nothing but delimiters. */
function isBlank(rep: string, d: Hl7v2Delimiters): boolean {
  for (let i = 0; i < rep.length; i++) {
    const ch = rep[i];
    if (ch !== d.component && ch !== d.subcomponent) return false;
  }
  return true;
}

export class Seg {
  constructor(
    readonly raw: Hl7v2Segment,
    readonly d: Hl7v2Delimiters,
    /** position of the segment in the message (0-based), for ids */
    readonly index: number,
  ) {}

  get id(): string {
    return this.raw.id;
  }

  private readonly read = new Map<number, Field[]>();

  /** Every non-empty repetition of field `n` (split and decoded once). */
  reps(n: number): Field[] {
    const known = this.read.get(n);
    if (known) return known;
    const raw = this.raw.fields[n] ?? '';
    const d = this.d;
    const fields: Field[] = [];
    if (raw !== '') {
      for (const rep of raw.split(d.repetition)) {
        if (isBlank(rep, d)) continue;
        const parts = rep.split(d.component).map((c) => {
          const subs = c.includes(d.subcomponent) ? c.split(d.subcomponent) : [c];
          return c.includes(d.escape) ? subs.map((x) => decode(x, d)) : subs;
        });
        fields.push(new Field(parts, d));
      }
    }
    this.read.set(n, fields);
    return fields;
  }

  /** The first repetition of field `n` (an empty field when absent). */
  f(n: number): Field {
    return this.reps(n)[0] ?? new Field([], this.d);
  }

  /** Field `n`, first repetition, component 1. */
  v(n: number): string {
    return this.f(n).c(1).trim();
  }
}

export function segs(message: Hl7v2Message): Seg[] {
  return message.segments.map((s, i) => new Seg(s, message.delimiters, i));
}
