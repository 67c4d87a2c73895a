import type { Hl7v2Message } from '@/clinical/hl7v2/types';
import type { X12Interchange } from '@/clinical/x12/types';
import type { PortType } from '@/shared/ports';

/** Which reading view a value gets besides its JSON. `*-text` are raw HL7 / X12 messages carried as text. */
export type ClinicalKind = 'hl7v2' | 'hl7v2-text' | 'x12' | 'x12-text' | 'fhir-bundle' | 'fhir-resource';

export const KIND_LABEL: Record<ClinicalKind, string> = {
  hl7v2: 'HL7 v2',
  'hl7v2-text': 'HL7 v2',
  x12: 'X12',
  'x12-text': 'X12',
  'fhir-bundle': 'FHIR bundle',
  'fhir-resource': 'FHIR',
};

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The `hl7v2-message` shape (src/clinical/hl7v2/types.ts): delimiters and segments of raw fields. */
export function isHl7v2Message(v: unknown): v is Hl7v2Message {
  if (!isObject(v) || !isObject(v.delimiters) || !Array.isArray(v.segments) || v.segments.length === 0) return false;
  const d = v.delimiters;
  if (
    typeof d.field !== 'string' ||
    typeof d.component !== 'string' ||
    typeof d.repetition !== 'string' ||
    typeof d.subcomponent !== 'string' ||
    typeof d.escape !== 'string'
  )
    return false;
  return v.segments.every((s) => isObject(s) && typeof s.id === 'string' && Array.isArray(s.fields) && s.fields.every((f) => typeof f === 'string'));
}

/** The `x12-interchange` shape (src/clinical/x12/types.ts): separators, ISA and its groups. */
export function isX12Interchange(v: unknown): v is X12Interchange {
  return (
    isObject(v) &&
    isObject(v.separators) &&
    isObject(v.ISA) &&
    v.ISA.id === 'ISA' &&
    Array.isArray(v.groups) &&
    v.groups.every((g) => isObject(g) && isObject(g.GS) && Array.isArray(g.transactions))
  );
}

export function isFhirResource(v: unknown): v is { resourceType: string; id?: string } & Record<string, unknown> {
  return isObject(v) && typeof v.resourceType === 'string' && /^[A-Z][A-Za-z]+$/.test(v.resourceType);
}

export function isFhirBundle(v: unknown): v is { resourceType: 'Bundle'; entry?: { fullUrl?: string; resource?: unknown }[] } & Record<string, unknown> {
  return isFhirResource(v) && v.resourceType === 'Bundle' && (v.entry === undefined || Array.isArray(v.entry));
}

function startOf(text: string): string {
  return text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 4);
}

/** Raw HL7 v2 (a message or a batch) or X12 text, by how it starts. */
export function textKind(v: unknown): 'hl7v2-text' | 'x12-text' | null {
  if (typeof v !== 'string') return null;
  const head = startOf(v);
  if (/^(MSH|FHS|BHS)./.test(head) && head[3] !== undefined && !/[A-Za-z0-9\s]/.test(head[3])) return 'hl7v2-text';
  if (/^ISA./.test(head) && !/[A-Za-z0-9\s]/.test(head[3]!)) return 'x12-text';
  return null;
}

function byShape(v: unknown): ClinicalKind | null {
  if (isHl7v2Message(v)) return 'hl7v2';
  if (isX12Interchange(v)) return 'x12';
  if (isFhirBundle(v)) return 'fhir-bundle';
  if (isFhirResource(v)) return 'fhir-resource';
  return null;
}

/**
 * The view for a port's value: by the port's type (from the node type's descriptor) when it has one, with the
 * shape checked (an `hl7v2-message` port holding something else falls back to JSON); by the value's shape
 * for `json`, `any` and unknown ports; raw HL7 / X12 for `text`.
 */
export function clinicalKind(type: PortType | undefined, value: unknown): ClinicalKind | null {
  switch (type) {
    case 'hl7v2-message':
      return isHl7v2Message(value) ? 'hl7v2' : null;
    case 'x12-interchange':
      return isX12Interchange(value) ? 'x12' : null;
    case 'fhir-bundle':
    case 'fhir-resource':
      return isFhirBundle(value) ? 'fhir-bundle' : isFhirResource(value) ? 'fhir-resource' : null;
    case 'text':
      return textKind(value);
    case 'trigger-event':
      return null;
    default:
      return byShape(value) ?? textKind(value);
  }
}
