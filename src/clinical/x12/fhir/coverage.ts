import type { Coverage, Organization, Patient, Reference } from '@medplum/fhirtypes';
import { concept, SYSTEM } from './codes';
import type { ResourceSet } from './resource-set';

/** SBR02 / PAT01 individual relationship codes → subscriber-relationship. */
const RELATIONSHIP: Record<string, string> = {
  '18': 'self',
  '01': 'spouse',
  '19': 'child',
  '53': 'common',
  '20': 'other',
  '21': 'other',
  '39': 'other',
  '40': 'other',
  G8: 'other',
};

export interface CoverageInput {
  beneficiary: Reference<Patient>;
  subscriber?: Reference<Patient>;
  subscriberId?: string;
  payor: Reference<Organization | Patient>;
  /** SBR02 (18 = self) or PAT01 for a dependent. */
  relationship?: string;
  /** SBR03, the group or policy number, and SBR04 its name. */
  group?: string;
  groupName?: string;
  /** 1 for the primary payer (SBR01 P), 2 secondary, 3 tertiary. */
  order?: number;
}

export function addCoverage(set: ResourceSet, input: CoverageInput): Reference<Coverage> {
  const rel = input.relationship ? RELATIONSHIP[input.relationship] : undefined;
  const key = `Coverage:${input.payor.reference}:${input.beneficiary.reference}:${input.subscriberId ?? ''}:${input.group ?? ''}`;
  return set.add<Coverage>(key, (id) => ({
    resourceType: 'Coverage',
    id,
    status: 'active',
    beneficiary: input.beneficiary,
    ...(input.subscriber ? { subscriber: input.subscriber } : {}),
    ...(input.subscriberId ? { subscriberId: input.subscriberId } : {}),
    ...(rel ? { relationship: concept(SYSTEM.relationship, rel) } : {}),
    payor: [input.payor],
    ...(input.group
      ? { class: [{ type: concept(SYSTEM.coverageClass, 'group'), value: input.group, ...(input.groupName ? { name: input.groupName } : {}) }] }
      : {}),
    ...(input.order ? { order: input.order } : {}),
  }));
}

/** SBR01 payer responsibility sequence: P primary, S secondary, T tertiary, A–H payers 4–11. */
export function payerOrder(sbr01: string): number | undefined {
  const i = 'PSTABCDEFGH'.indexOf(sbr01);
  return sbr01 && i >= 0 ? i + 1 : undefined;
}
