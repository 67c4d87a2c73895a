import type { Coverage, RelatedPerson } from '@medplum/fhirtypes';
import { clean, contactPoint, humanName, tableConcept } from './datatypes';
import type { Ctx } from './context';
import type { Seg } from './reader';

/**
 * IN2-3 (the insured's employer, an XCN: id 1, name 2–7) → the policy holder of the Coverage of the IN1 it follows,
 * as a RelatedPerson of relationship E (employer, table 0131) with IN2-64 its phone, as the HL7 v2-to-FHIR mapping
 * and the FHIR-Converter templates do, unless IN1-10 and IN1-11 (the insured's group employer) are both given.
 */
export function employerPolicyHolder(in2: Seg, in1: Seg, coverage: Coverage, ctx: Ctx): void {
  const employer = in2.f(3);
  if (!ctx.patient || employer.empty || coverage.policyHolder || (in1.v(10) && in1.v(11))) return;
  const patient = ctx.patient;
  const id = employer.c(1).trim();
  const name = humanName(employer, 1);
  if (!id && !name) return;
  const rp = ctx.once<RelatedPerson>('RelatedPerson', `employer|${id || JSON.stringify(name)}`, (rid) => ({
    resourceType: 'RelatedPerson',
    id: rid,
    patient,
    relationship: [tableConcept('E', '0131', 'Employer')!],
    ...clean<Partial<RelatedPerson>>({
      identifier: id ? [{ value: id }] : [],
      name: name ? [name] : [],
      telecom: in2
        .reps(64)
        .map(contactPoint)
        .filter((x) => !!x),
    }),
  }));
  coverage.policyHolder = ctx.ref(rp);
}
