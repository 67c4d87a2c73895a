import type { Encounter, Reference, Resource } from '@medplum/fhirtypes';
import { parentOrders } from './orders';

/**
 * Records the Microsoft FHIR-Converter templates tie to the visit (`encounter`) in some events only: observations
 * of a patient update (ADT^A06/A07/A09/A10) and of an account (BAR^P01), allergies of BAR^P01, diagnoses of a
 * financial transaction (DFT) or an OMG order, reports of a financial transaction (DFT), a document result of
 * BAR^P12. Orders, the reports of OBRs and documents (TXA) are tied to it in every event: the templates leave them
 * out in results (ORU), documents (MDM) and immunizations (VXU), but US Core marks ServiceRequest.encounter,
 * DiagnosticReport.encounter and DocumentReference.context.encounter Must Support, and a result without its visit
 * loses what a clinician reads it by (a deliberate difference, counted against us by the comparison).
 */
const BY_EVENT: Record<string, string[]> = {
  'ADT^A06': ['Observation'],
  'ADT^A07': ['Observation'],
  'ADT^A09': ['Observation'],
  'ADT^A10': ['Observation'],
  'BAR^P01': ['Observation', 'AllergyIntolerance'],
  'BAR^P12': ['DiagnosticReport'],
  'DFT^P03': ['Condition', 'DiagnosticReport'],
  'DFT^P11': ['Condition', 'DiagnosticReport'],
  'OMG^O19': ['Condition'],
};

type Linkable = Resource & { encounter?: Reference; subject?: Reference; patient?: Reference };

/**
 * Ties the records of `event` (`ADT^A06`) that have no visit yet to the visit of their patient: for a diagnosis
 * the visit that lists it, otherwise the patient's visit when the message has exactly one (an order read before
 * the PV1, as in REF^I12, gets it too; a parent order, ORC-8, known only by its numbers, does not).
 */
export function linkToVisit(resources: Resource[], event: string): void {
  const types = new Set(['ServiceRequest', ...(BY_EVENT[event] ?? [])]);
  const visits = new Map<string, Encounter[]>();
  for (const r of resources) {
    if (r.resourceType !== 'Encounter' || !r.subject?.reference) continue;
    visits.set(r.subject.reference, [...(visits.get(r.subject.reference) ?? []), r]);
  }
  const parents = parentOrders(resources);
  // a diagnosis belongs to the visit that lists it
  const listedBy = new Map<string, Encounter>();
  for (const list of visits.values())
    for (const e of list) for (const d of e.diagnosis ?? []) if (d.condition.reference) listedBy.set(d.condition.reference, e);
  for (const r of resources as Linkable[]) {
    const key = `${r.resourceType}/${r.id}`;
    if (!types.has(r.resourceType) || r.encounter || parents.has(key)) continue;
    const patient = (r.subject ?? r.patient)?.reference;
    const found = patient ? visits.get(patient) : undefined;
    const visit = listedBy.get(key) ?? (found?.length === 1 ? found[0] : undefined);
    if (visit) r.encounter = { reference: `Encounter/${visit.id}` };
  }
}
