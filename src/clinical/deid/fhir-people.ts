import { fhirPath } from '@/clinical/fhir/fhirpath';
import { childElements, type Element, ElementIndex } from './fhir-elements';
import { mayReach, type Target } from './fhir-rules';
import type { KnownIdentifiers } from './scrub';

/**
 * Who a FHIR resource is about and what it says that identifies someone: its Patient, the MRN, the strings a
 * person's resource holds of its own, and the values whose copies in free text are scrubbed.
 */

type Json = Record<string, unknown>;

/** Where a resource holds a string or markdown of its own (see Run.hashOwnStrings). */
export function ownStrings(resource: Json): Target[] {
  const out: Target[] = [];
  const visit = (node: Element): void => {
    const data = node.data as Json;
    for (const prop of Object.keys(data)) {
      if (prop === 'resourceType' || prop.startsWith('_')) continue;
      for (const c of childElements(node, prop)) {
        if (c.type === 'string' || c.type === 'markdown') {
          if (typeof c.data === 'string') out.push({ obj: data, key: prop, ...(c.index !== null ? { index: c.index } : {}) });
        } else if (c.type === 'BackboneElement' && c.data && typeof c.data === 'object' && !Array.isArray(c.data)) visit(c);
      }
    }
  };
  visit({ data: resource, extra: null, path: resource.resourceType as string, type: resource.resourceType as string, parent: null, prop: null, index: null });
  return out;
}

/** The values at ownStrings' places, in its order. */
function ownStringValues(r: Json): unknown[] {
  return ownStrings(r).map((t) => (t.index === undefined ? t.obj[t.key] : (t.obj[t.key] as unknown[])[t.index]));
}

/** The MRN of a Patient: its identifier typed MR, else its first identifier's value. */
export function medicalRecordNumber(p: Json): string | undefined {
  const ids = ((p.identifier as Json[] | undefined) ?? []).filter((i) => typeof i?.value === 'string');
  const mr = ids.find((i) => ((i.type as Json | undefined)?.coding as Json[] | undefined)?.some((c) => c.code === 'MR'));
  return ((mr ?? ids[0])?.value as string | undefined)?.trim() || undefined;
}

/** The fields that name the Patient a resource is about, first to last */
export const PATIENT_FIELDS = ['subject', 'patient', 'beneficiary', 'individual', 'who'];

/** The id of the Patient a resource refers to (subject, patient, beneficiary…, else any reference to a Patient). */
export function patientReference(r: Json, index: ElementIndex | undefined): string | undefined {
  for (const f of PATIENT_FIELDS) {
    const ref = (r[f] as Json | undefined)?.reference;
    const id = typeof ref === 'string' ? patientId(ref) : undefined;
    if (id) return id;
  }
  const refs = index ? ElementIndex.values(index.ofType('Reference'), ['reference']) : fhirPath('descendants().ofType(Reference).reference')(r);
  for (const ref of refs) {
    const id = typeof ref === 'string' ? patientId(ref) : undefined;
    if (id) return id;
  }
  return undefined;
}

/** The Patient id a reference names (`Patient/123`, or a `urn:uuid:`), if any. */
export function patientId(ref: string): string | undefined {
  const m = /(?:^|\/)Patient\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/.*)?$/.exec(ref) ?? /^urn:uuid:(.+)$/.exec(ref);
  return m?.[1];
}

const PERSON_REFERENCE = /(?:^|\/)(?:Patient|Practitioner|RelatedPerson|Person)[/?]/;
const PLACE_REFERENCE = /(?:^|\/)(?:PractitionerRole|Organization|Location|Group|HealthcareService)[/?]/;

/** What a resource says that identifies someone, for scrubbing its (and its bundle's) free text. */
export function collectKnown(r: Json, known: KnownIdentifiers, { fields, index }: { fields: Set<string>; index: ElementIndex | undefined }): void {
  const reach = (expr: string) => mayReach(expr, r.resourceType, fields);
  // with the index, the same values in the same order as these FHIRPaths give (select's union drops repeats,
  // which `add` ignores anyway)
  const none = (type: string) => index?.ofType(type).length === 0;
  const select = (type: string, names: string[], expr: string) =>
    none(type) || !reach(expr) ? [] : index ? ElementIndex.values(index.ofType(type), names) : fhirPath(expr)(r);
  const objects = (type: string) => {
    const expr = `descendants().ofType(${type})`;
    if (none(type)) return [];
    const found = index && reach(expr) ? index.ofType(type).map((e) => e.data) : undefined;
    // fhirpath.js leaves out empty elements: when there are any (never in valid FHIR), it answers
    return (found?.every((v) => v !== null && typeof v === 'object') ? found : reach(expr) ? fhirPath(expr)(r) : []) as Json[];
  };
  for (const v of select('HumanName', ['family', 'given', 'text'], 'descendants().ofType(HumanName).select(family | given | text)')) known.add('NAME', v);
  for (const v of select('Identifier', ['value'], 'descendants().ofType(Identifier).value')) known.add('ID', v);
  for (const v of objects('ContactPoint')) known.add(v.system === 'email' ? 'EMAIL' : 'PHONE', v.value);
  for (const v of select('Address', ['line', 'city', 'district', 'text'], 'descendants().ofType(Address).select(line | city | district | text)'))
    known.add('ADDRESS', v);
  for (const ref of objects('Reference')) addReferenceDisplay(known, ref);
  const maiden = 'http://hl7.org/fhir/StructureDefinition/patient-mothersMaidenName';
  const maidenExpr = `descendants().where(url = '${maiden}').value`;
  const maidenNames = !reach(maidenExpr) ? [] : index ? ElementIndex.values(index.withUrl(maiden), ['value']) : fhirPath(maidenExpr)(r);
  for (const v of maidenNames) known.add('NAME', v);
  addOwnNames(known, r);
}

/**
 * What a resource says of itself that text elsewhere may repeat, after the values its elements hold: an organization's
 * or location's name and aliases, the numbers and names a person's resource holds as plain strings
 * (Coverage.subscriberId…, which its rule hashes), and its id. Both ways of collecting (interpreted and compiled) end so.
 */
export function addOwnNames(known: KnownIdentifiers, r: Json, personStrings: (r: Json) => unknown[] = ownStringValues): void {
  if (r.resourceType === 'Organization' || r.resourceType === 'Location') {
    known.add('NAME', r.name, false);
    for (const a of (r.alias as unknown[] | undefined) ?? []) known.add('NAME', a, false);
  }
  if (PERSON_RESOURCES.has(r.resourceType as string)) for (const v of personStrings(r)) known.add('ID', v);
  if (typeof r.id === 'string') known.add('ID', r.id);
}

/** A reference's display: a person's also counts word by word, a place's ("Newman Regional Health") only as a whole. */
export function addReferenceDisplay(known: KnownIdentifiers, ref: Json): void {
  if (typeof ref.display !== 'string') return;
  if (typeof ref.reference === 'string' && PERSON_REFERENCE.test(ref.reference)) known.add('NAME', ref.display);
  else if (typeof ref.reference !== 'string' || PLACE_REFERENCE.test(ref.reference)) known.add('NAME', ref.display, false);
}

/** The resources that describe a person: the preset hashes every string of their own (see SAFE_HARBOR_RULES). */
export const PERSON_RESOURCES: ReadonlySet<string> = new Set(['Patient', 'RelatedPerson', 'Person', 'Coverage', 'Account']);
