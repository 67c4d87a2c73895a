import type { Bundle, Condition, DocumentReference, Immunization, Observation, Resource } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { parseMessage } from '@/clinical/hl7v2';
import { hl7Sample } from '../../../tests/support/clinical/hl7v2';
import { convertMessage } from './convert';

function convert(name: string): Bundle {
  return convertMessage(parseMessage(hl7Sample(name))).bundle;
}

function all<T extends Resource>(bundle: Bundle, type: T['resourceType']): T[] {
  return (bundle.entry ?? []).map((e) => e.resource!).filter((r): r is T => r.resourceType === type);
}

describe('the identifiers of diagnoses, accidents, immunizations and documents', () => {
  it('gives a diagnosis its DG1-20 identifier and makes DG1-22, not the action code DG1-21, the condition it is due to', () => {
    // DG1|…|DG1002|X|DG1001|: identifier, action code (X), parent diagnosis
    const conditions = all<Condition>(convert('REF-I12-01.hl7'), 'Condition');
    const ulcer = conditions.find((c) => c.code?.coding?.[0]?.code === 'K63.3')!;
    expect(ulcer.identifier?.map((i) => i.value)).toEqual(['DG1002']);
    const parent = conditions.find((c) => `Condition/${c.id}` === ulcer.extension?.[0]?.valueReference?.reference)!;
    expect(parent.identifier?.map((i) => i.value)).toEqual(['DG1001']);
    expect(conditions.flatMap((c) => c.identifier ?? []).map((i) => i.value)).not.toContain('X');
  });

  it('gives an accident its ACC-13 identifier', () => {
    const incident = all<Observation>(convert('ADT-A01-01.hl7'), 'Observation').find((o) => o.code.coding?.[0]?.code === 'injury-incident')!;
    expect(incident.identifier?.map((i) => i.value)).toEqual(['5348']);
  });

  it('gives an immunization the placer and filler numbers of its order (ORC-2, ORC-3)', () => {
    const [imm] = all<Immunization>(convert('IZ_1_1.1_Admin_Child_Max_Message.hl7'), 'Immunization');
    expect(imm!.identifier?.map((i) => `${i.type?.coding?.[0]?.code} ${i.value}`)).toEqual(['FILL IZ-783274']);
  });

  it('names a document by TXA-12 and TXA-16; the parent document (TXA-13) is what it appends to or replaces, the order numbers its related order', () => {
    const [t02] = all<DocumentReference>(convert('MDM-T02-01.hl7'), 'DocumentReference');
    expect(t02!.masterIdentifier?.value).toBe('1.2.840.317.5947431.51.20080131160038');
    expect(t02!.identifier).toBeUndefined();
    // an original document (T01/T02) relates to no other
    expect(t02!.relatesTo).toBeUndefined();
    expect(t02!.context?.related?.map((r) => `${r.type} ${r.identifier?.value}`)).toEqual(['ServiceRequest 00012345', 'ServiceRequest 1-1']);
    const [addendum] = all<DocumentReference>(convert('MDM-T05-01.hl7'), 'DocumentReference');
    const parent = expect.objectContaining({ value: '1.2.840.317.5947431.51.20080131155715' });
    expect(addendum!.relatesTo).toEqual([{ code: 'appends', target: { identifier: parent } }]);
    const [replacement] = all<DocumentReference>(convert('MDM-T09-01.hl7'), 'DocumentReference');
    expect(replacement!.relatesTo?.[0]?.code).toBe('replaces');
    const [report] = all<DocumentReference>(convert('ORU-R01-01.hl7'), 'DocumentReference');
    expect(report!.identifier?.map((i) => i.value)).toEqual(['54302-DEX']);
  });
});
