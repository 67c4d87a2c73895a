/**
 * One field of a segment definition: its name, data type and, for coded fields, the HL7 table its values
 * come from (`'0001'` = HL7 table 0001, Administrative Sex).
 */
export type FieldRow = readonly [name: string, dataType: string, table?: string];

/** A segment: its name and its fields, `fields[0]` being field 1. */
export interface SegmentDef {
  name: string;
  fields: readonly FieldRow[];
}

/** A composite data type's components, `components[0]` being component 1 (table as for fields). */
export type DataTypeDef = readonly FieldRow[];
