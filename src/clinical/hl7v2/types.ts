/**
 * The `hl7v2-message` value (docs/clinical-values.md): plain JSON that flows between nodes, is stored in
 * execution records and is what JSONata, filter and code users read. `segments` is the truth (every field's
 * raw, still-escaped text, so serialization gives the message back byte for byte); the header facts and
 * `delimiters` are read from MSH when the value is made, for convenience.
 */

/** The five delimiters a message declares in MSH-1 and MSH-2. */
export interface Hl7v2Delimiters {
  /** MSH-1, usually `|` */
  field: string;
  /** MSH-2 first character, usually `^` */
  component: string;
  /** MSH-2 second character, usually `~` */
  repetition: string;
  /** MSH-2 third character, usually `\` */
  escape: string;
  /** MSH-2 fourth character, usually `&` */
  subcomponent: string;
  /** MSH-2 fifth character (v2.7+), usually `#`; empty when MSH-2 has four characters */
  truncation: string;
}

/**
 * One segment. `fields[n]` is field n as HL7 numbers it, raw (escape sequences kept): `fields[0]` is the
 * segment id, so `fields[5]` of a PID is PID-5. In MSH (and FHS, BHS) `fields[1]` is the field separator
 * itself and `fields[2]` the encoding characters, as HL7 counts them.
 */
export interface Hl7v2Segment {
  id: string;
  fields: string[];
}

export interface Hl7v2Message {
  /** MSH-9.1, e.g. `ADT` */
  message_type: string;
  /** MSH-9.2, e.g. `A01` */
  trigger_event: string;
  /** MSH-9.3, e.g. `ADT_A01` (empty before v2.3.1 or when the sender leaves it out) */
  structure: string;
  /** MSH-10 */
  control_id: string;
  /** MSH-12.1, e.g. `2.5.1` */
  version: string;
  /** MSH-11.1: `P` production, `T` training, `D` debugging */
  processing_id: string;
  /** MSH-7.1 as sent (HL7 DTM, e.g. `20240105083000-0500`) */
  sent_at: string;
  /** MSH-3.1 */
  sending_application: string;
  /** MSH-4.1 */
  sending_facility: string;
  /** MSH-5.1 */
  receiving_application: string;
  /** MSH-6.1 */
  receiving_facility: string;
  delimiters: Hl7v2Delimiters;
  segments: Hl7v2Segment[];
}

/** One batch of a batch file: BHS, its messages, BTS (either envelope segment may be absent). */
export interface Hl7v2BatchGroup {
  header?: Hl7v2Segment;
  messages: Hl7v2Message[];
  trailer?: Hl7v2Segment;
}

/**
 * A batch file: FHS, one or more BHS … BTS batches, FTS. Text that simply holds several messages one after
 * the other (no envelope) is a batch of one group without header or trailer.
 */
export interface Hl7v2Batch {
  file_header?: Hl7v2Segment;
  batches: Hl7v2BatchGroup[];
  file_trailer?: Hl7v2Segment;
}

/** A reason the text is not HL7 v2 (`HL7_INVALID`) or a batch count that does not match (`HL7_BATCH_COUNT`). */
export interface Hl7v2Issue {
  code: 'HL7_INVALID' | 'HL7_BATCH_COUNT';
  message: string;
  /** 1-based line of the text (after the byte-order mark) */
  line?: number;
  /** The segment id on that line, when it has one */
  segment?: string;
}
