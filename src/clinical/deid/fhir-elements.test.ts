import { describe, expect, it } from 'vitest';
import { fhirPath } from '@/clinical/fhir/fhirpath';
import { ElementIndex } from './fhir-elements';
import { adtBundles, syntheaResources } from '../../../tests/support/clinical/deid';

type Json = Record<string, unknown>;
const TYPES = [
  'HumanName',
  'Reference',
  'Address',
  'ContactPoint',
  'Identifier',
  'Attachment',
  'Narrative',
  'Annotation',
  'Extension',
  'Coding',
  'Period',
  'Quantity',
];
const URLS = [
  'http://hl7.org/fhir/StructureDefinition/patient-mothersMaidenName',
  'http://hl7.org/fhir/StructureDefinition/geolocation',
  'http://example.org/x',
];

interface Placed {
  data: unknown;
  parent: unknown;
  prop: unknown;
  index: unknown;
}

/** What fhirpath.js gives, with where each result sits (its hidden `__path__`). */
function byFhirPath(expr: string, r: Json): Placed[] {
  return fhirPath(expr)(r).map((v) => {
    const p = (v as { __path__?: { parentResNode?: { data?: unknown }; propName?: unknown; index?: unknown } }).__path__;
    return { data: v, parent: p?.parentResNode?.data, prop: p?.propName, index: p?.index ?? null };
  });
}

function byIndex(found: { data: unknown; parent: { data: unknown } | null; prop: string | null; index: number | null }[]): Placed[] {
  return found.filter((e) => e.data != null).map((e) => ({ data: e.data, parent: e.parent?.data, prop: e.prop, index: e.index }));
}

/** Every resource of a sample (a Bundle's entries), each a fresh JSON copy so fhirpath.js's marks do not carry over. */
function resources(): Json[] {
  const adt = adtBundles().flatMap((b) => (b.entry as { resource: Json }[]).map((e) => e.resource));
  // Synthea: the first 15 resources of each type (all of them takes minutes through fhirpath.js)
  const seen = new Map<string, number>();
  const synthea = syntheaResources().filter((r) => {
    const n = seen.get(r.resourceType as string) ?? 0;
    seen.set(r.resourceType as string, n + 1);
    return n < 15;
  });
  return [...adt, ...synthea, ...EDGES].map((r) => JSON.parse(JSON.stringify(r)) as Json);
}

// shapes valid FHIR allows and the samples lack: contained resources, primitive extensions (with and without
// a value), choice values of complex types, extensions in extensions, a value only in its `_` sibling
const EDGES: Json[] = [
  {
    resourceType: 'Patient',
    id: 'p1',
    contained: [
      {
        resourceType: 'RelatedPerson',
        id: 'rp',
        name: [{ family: 'Roe' }],
        patient: { reference: 'Patient/p1' },
        telecom: [{ system: 'phone', value: '555' }],
      },
    ],
    name: [
      {
        family: 'Doe',
        given: ['Jane', 'Q'],
        _given: [null, { extension: [{ url: 'http://example.org/x', valueReference: { reference: '#rp', display: 'R' } }] }],
      },
    ],
    _birthDate: { extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason', valueCode: 'unknown' }] },
    extension: [
      { url: 'http://hl7.org/fhir/StructureDefinition/patient-mothersMaidenName', valueString: 'Smith' },
      { url: 'http://example.org/x', valueHumanName: { family: 'Alias' }, extension: [{ url: 'http://example.org/x', valueAddress: { city: 'Springfield' } }] },
      { url: 'http://hl7.org/fhir/StructureDefinition/geolocation', extension: [{ url: 'latitude', valueDecimal: 1.5 }] },
    ],
    address: [{ line: ['1 Main St'], _line: [{ extension: [{ url: 'http://example.org/x', valueIdentifier: { value: 'A1' } }] }], postalCode: '02134' }],
    managingOrganization: { reference: 'Organization/o1', identifier: { value: 'O1', assigner: { display: 'Org' } } },
  },
  {
    resourceType: 'Observation',
    status: 'final',
    code: { text: 'x' },
    valueQuantity: { value: 3, unit: 'kg' },
    note: [{ text: 'n', authorReference: { reference: 'Practitioner/1' } }],
    subject: { reference: 'Patient/p1' },
  },
  {
    resourceType: 'Questionnaire',
    status: 'draft',
    item: [{ linkId: '1', type: 'group', item: [{ linkId: '1.1', type: 'attachment', initial: [{ valueAttachment: { url: 'http://x', title: 't' } }] }] }],
  },
];

describe('the element index answers as fhirpath.js does', () => {
  it('gives the same elements, in the same order and places, for descendants().ofType(T) and where(url = …)', () => {
    let compared = 0;
    for (const r of resources()) {
      const index = ElementIndex.of(r);
      // every resource of the samples has an index: none may be passed over
      expect(index, `${r.resourceType} has an element index`).toBeInstanceOf(ElementIndex);
      if (!index) continue;
      for (const type of TYPES) {
        if (type === 'Quantity') continue; // a System type too: not asked of the index
        expect(byIndex(index.ofType(type)), `${r.resourceType} ofType(${type})`).toEqual(byFhirPath(`descendants().ofType(${type})`, r));
        compared++;
      }
      for (const url of URLS) {
        expect(byIndex(index.withUrl(url)), `${r.resourceType} ${url}`).toEqual(byFhirPath(`descendants().where(url = '${url}')`, r));
        expect(ElementIndex.values(index.withUrl(url), ['value'])).toEqual(fhirPath(`descendants().where(url = '${url}').value`)(r));
      }
      // select's union drops repeats within each name, which the index keeps (KnownIdentifiers.add ignores them)
      const names = index.ofType('HumanName').flatMap((e) => [...new Set(ElementIndex.values([e], ['family', 'given', 'text']))]);
      expect(names).toEqual(fhirPath('descendants().ofType(HumanName).select(family | given | text)')(r));
      expect(ElementIndex.values(index.ofType('Reference'), ['reference'])).toEqual(fhirPath('descendants().ofType(Reference).reference')(r));
    }
    expect(compared).toBeGreaterThan(1000);
  }, 120_000);

  it('leaves to fhirpath.js what it would see differently', () => {
    expect(ElementIndex.of({ name: [{ family: 'Doe' }] })).toBeUndefined(); // no resourceType: fhirpath.js finds nothing
    expect(ElementIndex.of({ resourceType: 'Patient', name: [Symbol('removed')] })).toBeUndefined();
    expect(ElementIndex.of({ resourceType: 'Patient', name: [[{ family: 'Doe' }]] })).toBeUndefined();
    // a string where a HumanName belongs is still found, so the rule refuses it as fhirpath.js's answer would
    expect(
      ElementIndex.of({ resourceType: 'Patient', name: ['Doe'] })!
        .ofType('HumanName')
        .map((e) => e.data),
    ).toEqual(['Doe']);
  });
});
