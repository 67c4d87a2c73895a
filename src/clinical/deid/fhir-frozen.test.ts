import { describe, expect, it } from 'vitest';
import { parseMessage, serialize } from '@/clinical/hl7v2';
import { convertMessage, SUPPORTED_TYPES } from '@/clinical/hl7v2-fhir';
import { hl7Samples } from '../../../tests/support/clinical/hl7v2';
import { syntheaRecords, syntheaResources } from '../../../tests/support/clinical/deid';
import { rareResources } from '../../../tests/support/clinical/deid-rare';
import { deidentifyFhir, type FhirDeidOptions } from './fhir';
import { deidentifyFhir as reference } from '../../../tests/support/deid-base/fhir';
import { deidentifyHl7v2 as deidentifyHl7v2Base } from '../../../tests/support/deid-base/hl7v2';
import { deidentifyHl7v2 } from './hl7v2';

/**
 * The de-identification a message gets today is the one it got before the preset was compiled: byte for byte
 * (JSON.stringify equal) with the interpreted path (deidentifyFhirInterpreted) as the reference, on every HL7 v2 sample as the
 * converter makes it (transaction and collection Bundles, every resource alone), every Synthea record and resource,
 * with the preset alone (the feed's configuration), with other options, and with the user rules the tests use.
 */
const key = new Uint8Array(32).fill(7);
const now = new Date('2026-01-01T00:00:00Z');
type Json = Record<string, unknown>;

const OPTIONS: [string, Omit<FhirDeidOptions, 'key'>][] = [
  ['the preset alone (the feed)', { rules: [] }],
  ['the preset, fixed now', { now }],
  ['the preset, ids, shifted birth dates, over 89 removed', { now, patientIdentity: 'id', maxShiftDays: 30, birthDate: { keepYear: false, over89: 'remove' } }],
  [
    'user rules before the preset',
    {
      now,
      rules: [
        { path: 'Patient.address.city', action: 'keep' },
        { path: 'Patient.maritalStatus', action: 'redact' },
      ],
    },
  ],
  ['a user rule alone', { now, preset: 'none', rules: [{ path: 'Patient.name.given.first()', action: 'redact' }] }],
  [
    'user rules reaching data types',
    {
      now,
      rules: [
        { path: 'descendants().ofType(Identifier).system', action: 'hash' },
        { path: 'Encounter', action: 'keep' },
      ],
    },
  ],
];

function hl7Inputs(): [string, Json][] {
  const out: [string, Json][] = [];
  for (const { name, text } of hl7Samples()) {
    const message = parseMessage(text);
    if (!(SUPPORTED_TYPES as readonly string[]).includes(message.message_type.toUpperCase())) continue;
    for (const bundleType of ['transaction', 'collection'] as const) {
      let bundle: Json;
      try {
        bundle = convertMessage(message, { bundleType }).bundle as unknown as Json;
      } catch {
        continue; // a message the converter refuses never reaches de-identification
      }
      out.push([`${name} (${bundleType})`, bundle]);
      if (bundleType === 'collection')
        for (const e of bundle.entry as Json[]) out.push([`${name}: ${(e.resource as Json).resourceType as string}`, e.resource as Json]);
    }
  }
  return out;
}

function differences(inputs: [string, Json][], options: Omit<FhirDeidOptions, 'key'>): string[] {
  const out: string[] = [];
  for (const [name, input] of inputs) {
    const before = JSON.stringify(input);
    let want: string;
    let got: string;
    try {
      want = JSON.stringify(reference(input, { key, ...options }));
    } catch (e) {
      want = `throws ${String(e)}`;
    }
    try {
      got = JSON.stringify(deidentifyFhir(input, { key, ...options }));
    } catch (e) {
      got = `throws ${String(e)}`;
    }
    if (got !== want) out.push(name);
    if (JSON.stringify(input) !== before) out.push(`${name}: input changed`);
  }
  return out;
}

/** Odd inputs, some the compiled form takes, others it leaves to the interpreted rules: the same output (or the same error). */
const QUIRKS: [string, Json][] = [
  [
    'a primitive extension',
    { resourceType: 'Patient', id: 'p1', birthDate: '1960-02-03', _birthDate: { extension: [{ url: 'http://x/y', valueString: 'Jane Roe' }] } },
  ],
  ['a null in an array', { resourceType: 'Patient', id: 'p2', name: [{ family: 'Roe', given: ['Jane', null] }], telecom: [null] }],
  ['a string for a HumanName', { resourceType: 'Patient', id: 'p3', name: ['Jane Roe'] }],
  ['a choice field by its bare name', { resourceType: 'Observation', id: 'o1', subject: { reference: 'Patient/p1' }, value: '2020-01-02 Jane' }],
  [
    'an Organization by its name alone',
    { resourceType: 'Organization', name: 'Newman Regional Health', alias: ['NRH'], telecom: [{ system: 'email', value: 'a@b.org' }] },
  ],
  ['no resourceType', { id: 'x', name: [{ family: 'Roe' }] }],
  ['properties left undefined', { resourceType: 'Patient', id: 'p5', name: undefined, active: undefined, gender: 'female', birthDate: '1950-01-02' }],
  ['a number that is not finite', { resourceType: 'Observation', id: 'o2', subject: { reference: 'Patient/p5' }, valueQuantity: { value: Number.NaN } }],
  ['a Date object', { resourceType: 'Patient', id: 'p6', meta: { lastUpdated: new Date('2020-01-02T03:04:05Z') } }],
  [
    'a resource shared by two entries, a nested Bundle, a shell with a Date',
    ((patient: Json) => ({
      resourceType: 'Bundle',
      type: 'collection',
      timestamp: new Date('2020-01-02T03:04:05Z'),
      entry: [
        { fullUrl: 'urn:uuid:p7', resource: patient },
        { fullUrl: 'urn:uuid:p7b', resource: patient, link: undefined },
        {
          resource: {
            resourceType: 'Bundle',
            type: 'collection',
            entry: [
              {
                fullUrl: 'Observation/o3',
                resource: { resourceType: 'Observation', id: 'o3', subject: { reference: 'Patient/p7' }, effectiveDateTime: '2020-02-03' },
              },
            ],
          },
        },
        { request: { method: 'GET', url: 'Patient?identifier=urn:mrn|123' } },
      ],
    }))({ resourceType: 'Patient', id: 'p7', identifier: [{ type: { coding: [{ code: 'MR' }] }, value: '123' }], name: [{ family: 'Roe', given: ['Jane'] }] }),
  ],
  ['a nested array', { resourceType: 'Patient', id: 'p4', address: [[{ line: ['1 Main St'] }]] }],
  [
    'two patients named, the deeper first in the text, the shallower first level by level',
    {
      resourceType: 'Observation',
      id: 'o9',
      extension: [{ url: 'http://x/y', valueReference: { reference: 'Patient/deep' } }],
      performer: [{ reference: 'Patient/shallow' }],
      effectiveDateTime: '2020-02-03',
    },
  ],
  [
    'one patient named twice, about no subject',
    { resourceType: 'Observation', id: 'o10', performer: [{ reference: 'Patient/one' }, { reference: 'urn:uuid:one' }], issued: '2020-02-03T00:00:00Z' },
  ],
];

describe('de-identification gives what it gave at the branch start (tests/support/deid-base, frozen)', () => {
  const hl7 = hl7Inputs();
  const synthea: [string, Json][] = [
    ...syntheaRecords().map((r, i): [string, Json] => [`synthea record #${i}`, r]),
    ...syntheaResources().map((r, i): [string, Json] => [`synthea resource #${i} ${r.resourceType as string}`, r]),
  ];

  const rare: [string, Json][] = [
    [
      'rare resources in one Bundle',
      { resourceType: 'Bundle', type: 'collection', entry: rareResources().map((resource) => ({ fullUrl: `urn:uuid:${resource.id as string}`, resource })) },
    ],
    ...rareResources().map((r): [string, Json] => [`rare ${r.resourceType as string} ${r.id as string}`, r]),
  ];

  it.each(OPTIONS)('on resources reaching the rules the samples do not: %s', (_, options) => {
    expect(differences(rare, options)).toEqual([]);
  });

  it.each(OPTIONS)('on odd inputs: %s', (_, options) => {
    expect(differences(QUIRKS, options)).toEqual([]);
  });

  it.each(OPTIONS)('on every HL7 v2 sample converted to FHIR: %s', (_, options) => {
    expect(hl7.length).toBeGreaterThan(500);
    expect(differences(hl7, options)).toEqual([]);
  });

  it.each(OPTIONS)(
    'on every Synthea record and resource: %s',
    (_, options) => {
      expect(synthea.length).toBe(186 + 7160);
      expect(differences(synthea, options)).toEqual([]);
    },
    120_000,
  );
});

describe('HL7 v2 de-identification (the same scrubber) gives what it gave at the branch start', () => {
  it('on every HL7 v2 sample, with and without a fixed now', () => {
    const changed: string[] = [];
    for (const { name, text } of hl7Samples())
      for (const options of [{ key }, { key, now, maxShiftDays: 30 }]) {
        const want = serialize(deidentifyHl7v2Base(parseMessage(text), options));
        if (serialize(deidentifyHl7v2(parseMessage(text), options)) !== want) changed.push(name);
      }
    expect(hl7Samples().length).toBeGreaterThan(50);
    expect(changed).toEqual([]);
  });
});
