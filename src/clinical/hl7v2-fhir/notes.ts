import type { Annotation, Resource } from '@medplum/fhirtypes';
import { clean } from './datatypes';
import type { Ctx } from './context';
import type { Seg } from './reader';

/** The resources an NTE can annotate (those with `note`). */
type Noted = Extract<Resource, { note?: Annotation[] }>;

/** R4 resources with `note` (a DiagnosticReport has none: an NTE after an OBX that is a document is left out). */
const NOTED = new Set([
  'Observation',
  'ServiceRequest',
  'Immunization',
  'AllergyIntolerance',
  'MedicationRequest',
  'MedicationDispense',
  'Procedure',
  'Condition',
]);

/**
 * NTE → a note (Annotation) of the resource made from the segment it follows, as the FHIR-Converter templates map
 * it: an OBX's Observation, an OBR's or ORC's ServiceRequest, an RXA's Immunization. NTE-3 the text (its
 * repetitions, lines), NTE-6 when it was entered, NTE-5 who entered it.
 */
export function note(nte: Seg, target: Resource | undefined, ctx: Ctx): void {
  const text = nte
    .reps(3)
    .map((f) => f.text())
    .join('\n')
    .trim();
  if (!target || !text || !NOTED.has(target.resourceType)) return;
  const annotation = clean<Annotation>({ text, time: ctx.dt(nte.v(6)), authorReference: ctx.practitioner(nte.reps(5)[0]) })!;
  ((target as Noted).note ??= []).push(annotation);
}
