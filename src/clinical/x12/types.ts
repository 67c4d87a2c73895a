/**
 * The `x12-interchange` value: one X12 interchange as JSON, readable and addressable in JSONata, and holding
 * everything an exact re-serialization needs (docs/clinical-values.md, section "x12-interchange").
 */

/**
 * One element as on the wire: a plain string; a composite as the list of its components
 * (`SV101: ["HC", "99213"]`); a repeated element as the list of its repetitions, each a list of components
 * (`EB03: [["1"], ["33"], ["35"]]`). Which form an element takes follows the separators present on the wire,
 * so splitting and joining back is exact.
 */
export type X12Element = string | string[] | string[][];

/**
 * A segment: its id and its elements keyed as implementation guides name them (`CLM01`, `NM109`), every
 * position up to the last one on the wire present (empty ones as `""`).
 */
export interface X12Segment {
  id: string;
  [position: string]: X12Element;
}

/** A loop of an implementation guide (`2300` claim, `2400` service line…): its own segments, then its child loops. */
export interface X12Loop {
  loop: string;
  name: string;
  segments: X12Segment[];
  loops: X12Loop[];
}

export interface X12Transaction {
  ST: X12Segment;
  /** ST01: `837`, `835`, `834`, `270`… */
  set: string;
  /** ST03, else GS08: the implementation guide (`005010X222A2`). */
  guide: string;
  /** What the loops were read as: `837P`, `837I`, `835`, `834`, `270`, `271`, `276`, `277`, or `""` (no loop map). */
  kind: string;
  /** Header segments before the first loop (BHT, BPR, TRN, REF…). */
  segments: X12Segment[];
  loops: X12Loop[];
  /** Absent only when the transaction had no SE (a lenient parse says so in `warnings`). */
  SE?: X12Segment;
}

export interface X12Group {
  GS: X12Segment;
  transactions: X12Transaction[];
  GE?: X12Segment;
}

export interface X12Separators {
  /** ISA, 4th character. */
  element: string;
  /** ISA16. */
  component: string;
  /** ISA11 when it is a separator (5010); `""` when it is a standards identifier such as `U` (4010). */
  repetition: string;
  /** The character after ISA16. */
  segment: string;
  /** What follows each segment terminator but the last: `""`, `"\n"`, `"\r\n"` or `"\r"`. */
  line: string;
}

export interface X12Interchange {
  separators: X12Separators;
  ISA: X12Segment;
  groups: X12Group[];
  IEA?: X12Segment;
  /** Control problems a lenient parse let through (empty after a clean or strict parse). */
  warnings: X12Issue[];
}

export interface X12Position {
  /** 1-based ordinal of the segment in the interchange (ISA is 1). */
  segment: number;
  /** 0-based character offset in the parsed text (after a leading byte-order mark, if any). */
  offset: number;
  /** 1-based line and column in the parsed text. */
  line: number;
  column: number;
}

export interface X12Issue {
  /** `X12_INVALID` (not X12), or a control check: `SE01_COUNT`, `SE02_CONTROL`, `GE01_COUNT`… */
  code: string;
  message: string;
  /** The segment the issue is about (`SE`, `GE`, `IEA`…), when there is one. */
  segment?: string;
  /** The element, as guides name it (`SE01`). */
  element?: string;
  position?: X12Position;
}
