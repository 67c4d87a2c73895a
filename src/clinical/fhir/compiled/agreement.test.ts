import { describe, expect, it } from 'vitest';
import { syntheaRecords } from '../../../../tests/support/clinical/deid';
import { convertedSamples, expectedBundle, expectedBundleNames, synthea, syntheaTypes } from '../../../../tests/support/clinical/fhir';
import { type FhirIssue, validateFhir, validateFhirReference } from '../validate';

/**
 * The compiled validator against the reference (@medplum/core's validator interpreting the StructureDefinitions, with
 * validate.ts's required codes and resource-invariants.ts's nested invariants: what validateFhir was before).
 * The comparison, for every value: the same issues as a multiset of (severity, code, path, message) — every error and
 * warning, each with its exact path and words, as many times each — with required codes checked and without; or
 * both throw, with the same message. Nothing is left out and nothing is normalised.
 */

type Json = Record<string, unknown>;

function outcome(validate: typeof validateFhir, value: unknown, bindings: boolean): string[] {
  try {
    return validate(value, { bindings })
      .map((i: FhirIssue) => `${i.severity}|${i.code}|${i.path}|${i.message}`)
      .sort();
  } catch (e) {
    return [`throws: ${e instanceof Error ? e.message : String(e)}`];
  }
}

interface Tally {
  values: number;
  withErrors: number;
  mismatches: string[];
  kinds: Set<string>;
}

const tally = (): Tally => ({ values: 0, withErrors: 0, mismatches: [], kinds: new Set() });

/** What kind of issue: the message without its values (`Invalid additional property "x"` → `Invalid additional property`). */
const kindOf = (line: string) => {
  const [severity, code, , message] = line.split('|');
  return `${severity}|${code}|${message!.replace(/"[^"]*"|\([^)]*\)|\d+(\.\.[\d*]+)?/g, '…').slice(0, 60)}`;
};

function compare(t: Tally, label: string, value: unknown): void {
  for (const bindings of [true, false]) {
    const expected = outcome(validateFhirReference, value, bindings);
    const actual = outcome(validateFhir, value, bindings);
    t.values++;
    if (expected.some((l) => l.startsWith('error|') || l.startsWith('throws'))) t.withErrors++;
    for (const l of expected) t.kinds.add(l.startsWith('throws') ? 'throws' : kindOf(l));
    if (JSON.stringify(expected) !== JSON.stringify(actual)) {
      t.mismatches.push(`${label} (bindings ${bindings})\n  reference: ${expected.join('\n             ')}\n  compiled:  ${actual.join('\n             ')}`);
    }
  }
}

/** Each mutation of a JSON value: what a sender gets wrong. */
function mutationsOf(value: unknown): [string, unknown][] {
  if (typeof value === 'string')
    return [
      ['a number', 42],
      ['empty', ''],
      ['blank', '  '],
      ['a bad format', '21/05/1927 x'],
      ['an object', { value }],
    ];
  if (typeof value === 'number')
    return [
      ['a string', String(value)],
      ['a fraction', 1.5],
      ['negative', -1],
    ];
  if (typeof value === 'boolean') return [['a string', String(value)]];
  if (Array.isArray(value))
    return [
      ['its first item alone', value[0]],
      ['empty', []],
      ['with a null', [...value, null]],
      ['a string', 'x'],
    ];
  if (value && typeof value === 'object')
    return [
      ['a string', 'x'],
      ['in an array', [value]],
      ['empty', {}],
      ['null', null],
    ];
  return [];
}

/** The value with one change at `path` (keys and indices), on a copy. */
function changed(root: Json, path: (string | number)[], change: (parent: Json, key: string | number) => void): Json {
  const copy = structuredClone(root);
  let parent = copy as Json;
  for (const k of path.slice(0, -1)) parent = parent[k as string] as Json;
  change(parent, path.at(-1)!);
  return copy;
}

/** Every variant of `root`: each value replaced by each mutation, each key removed, an unknown key added to each object. */
function* variants(root: Json): Generator<[string, Json]> {
  const walk = function* (value: unknown, path: (string | number)[]): Generator<[string, Json]> {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length && i < 2; i++) yield* walk(value[i], [...path, i]);
      return;
    }
    if (!value || typeof value !== 'object') return;
    if (path.length) yield [`${path.join('.')} + unknown key`, changed(root, path, (p, k) => ((p[k as string] as Json).nickname = 'Sue'))];
    for (const [key, v] of Object.entries(value)) {
      const at = [...path, key];
      if (key === 'resourceType') continue;
      yield [`${at.join('.')} removed`, changed(root, at, (p, k) => delete p[k as string])];
      for (const [what, m] of mutationsOf(v)) yield [`${at.join('.')} as ${what}`, changed(root, at, (p, k) => (p[k as string] = structuredClone(m)))];
      yield* walk(v, at);
    }
  };
  yield* walk(root, []);
}

/** Defects written by hand: bad codes, invariants, choice types, primitive extensions, unknown types. */
function handWritten(): [string, unknown][] {
  const patient = structuredClone(synthea('Patient')[0]!) as unknown as Json;
  const condition = structuredClone(synthea('Condition')[0]!) as unknown as Json;
  const subject = { reference: 'Patient/1' };
  const request = { resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject, orderDetail: [{ text: 'fasting' }] };
  const coded = { coding: [{ system: 's', code: 'c' }] };
  const entry = (fullUrl: string, resource: unknown) => ({ fullUrl, resource });
  const observation = {
    resourceType: 'Observation',
    status: 'final',
    code: coded,
    valueString: 'x',
    dataAbsentReason: { text: 'x' },
    component: [{ code: coded }],
  };
  const ext = (e: Json) => ({ ...patient, extension: [e] });
  const bundle = (type: string, entry: Json[]) => ({ resourceType: 'Bundle', type, entry });
  return [
    ['bad gender, marital status code', { ...patient, gender: 'F', maritalStatus: { coding: [{ system: 'x', code: 'M' }] } }],
    ['bad status codes', { ...condition, clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'done' }] } }],
    ['pat-1', { ...patient, contact: [{ gender: 'female' }] }],
    ['prr-1 alone', request],
    ['prr-1 in a bundle, org-1 in a bundle', bundle('collection', [entry('urn:uuid:a', request), entry('urn:uuid:b', { resourceType: 'Organization' })])],
    ['org-1 alone', { resourceType: 'Organization', active: true }],
    ['bdl-3', bundle('collection', [{ fullUrl: 'urn:uuid:a', resource: patient, request: { method: 'POST', url: 'Patient' } }])],
    ['bdl-7 and bdl-8', bundle('collection', [entry('urn:uuid:a', patient), entry('urn:uuid:a', condition), entry('Patient/1/_history/2', patient)])],
    // the Bundle invariants natives.ts answers for plain values, and the shapes it leaves to the evaluators
    [
      'bdl-7 by versionId',
      bundle('collection', [entry('urn:uuid:a', { ...patient, meta: { versionId: '1' } }), entry('urn:uuid:a', { ...patient, meta: { versionId: '2' } })]),
    ],
    [
      'bdl-7, same versionId',
      bundle('collection', [entry('urn:uuid:a', { ...patient, meta: { versionId: '1' } }), entry('urn:uuid:a', { ...patient, meta: { versionId: '1' } })]),
    ],
    ['bdl-7, a history', bundle('history', [entry('urn:uuid:a', patient), entry('urn:uuid:a', patient)])],
    ['bdl-7, fullUrl concatenated', bundle('collection', [entry('urn:uuid:a1', patient), entry('urn:uuid:a', { ...patient, meta: { versionId: '1' } })])],
    [
      'bdl-7, odd fullUrls',
      bundle('collection', [entry('', patient), { ...entry('urn:uuid:a', patient), _fullUrl: { id: 'x' } }, { fullUrl: 7, resource: patient }]),
    ],
    ['bdl-3, a transaction entry without request', bundle('transaction', [entry('urn:uuid:a', patient), { ...entry('urn:uuid:b', patient), request: {} }])],
    [
      'bdl-4, a batch-response entry without response',
      bundle('batch-response', [{ ...entry('urn:uuid:a', patient), response: { status: '200' } }, entry('urn:uuid:b', patient)]),
    ],
    ['bdl-1, bdl-2', { ...bundle('collection', [{ ...entry('urn:uuid:a', patient), search: { mode: 'match' } }]), total: 1 }],
    ['bdl-1, bdl-2 in a searchset', { ...bundle('searchset', [{ ...entry('urn:uuid:a', patient), search: { mode: 'match' } }]), total: 1 }],
    ['bdl-5, an empty entry', bundle('collection', [{}, { fullUrl: 'urn:uuid:c' }, { resource: {} }, entry('urn:uuid:d', patient)])],
    ['bdl-9, bdl-10, bdl-11', bundle('document', [entry('urn:uuid:a', patient)])],
    ['bdl-12', bundle('message', [entry('urn:uuid:a', patient)])],
    ['a Bundle type with an extension', { ...bundle('transaction', [entry('urn:uuid:a', patient)]), _type: { id: 't' } }],
    ['a Bundle without a type', { resourceType: 'Bundle', entry: [entry('urn:uuid:a', patient), entry('urn:uuid:a', patient)] }],
    ['ext-1', ext({ url: 'http://x', valueString: 'a', extension: [{ url: 'http://y', valueString: 'b' }] })],
    ['an extension without url or value', ext({ id: 'e1' })],
    ['conflicting choice types', ext({ url: 'http://x', valueString: 'a', valueBoolean: true })],
    ['an unknown choice type', ext({ url: 'http://x', valueFoo: 'a' })],
    ['an unknown choice type beside a known one', ext({ url: 'http://x', valueString: 'a', valueFoo: 'a' })],
    ['a primitive extension', { ...patient, _birthDate: { extension: [{ url: 'http://x', valueString: 'a' }] } }],
    ['a primitive extension alone, and a bad one', { ...patient, birthDate: undefined, _birthDate: { id: 'b', nickname: 1 }, _gender: { extension: [{}] } }],
    ['a primitive extension of another type', ext({ url: 'http://x', valueString: 'a', _valueBoolean: { id: 'x' } })],
    [
      'primitive extensions of a list',
      {
        ...patient,
        name: [{ family: 'A', given: ['B', null], _given: [null, { extension: [{ url: 'http://x', valueString: 'c' }] }] }],
      },
    ],
    ['a null without its extension', { ...patient, name: [{ family: 'A', given: ['B', null] }] }],
    ['a primitive extension that is not an object', { ...patient, _gender: 'x' }],
    [
      'dom-2, dom-4, dom-5',
      {
        ...patient,
        contained: [
          {
            resourceType: 'Organization',
            name: 'x',
            meta: { versionId: '1', security: [{ code: 'x' }] },
            contained: [{ resourceType: 'Organization', name: 'y' }],
          },
        ],
      },
    ],
    ['a contained resource of an unknown type', { ...patient, contained: [{ resourceType: 'Patiant' }], gender: 'F' }],
    ['an entry of an unknown type', bundle('collection', [entry('urn:uuid:a', { ...patient, gender: 'F' }), entry('urn:uuid:b', { resourceType: 'Nope' })])],
    ['a contained value that is not a resource', { ...patient, contained: [{ id: 'x' }] }],
    ['an unknown resource type', { resourceType: 'Patiant', contained: [{ resourceType: 'Organization' }] }],
    ['a reference to a type not allowed', { ...condition, subject: { reference: 'Device/1' }, recorder: { reference: 'Condition?x=1' } }],
    ['obs-6 and obs-7', observation],
    ['numbers', { resourceType: 'RiskAssessment', status: 'final', subject: { reference: 'Patient/1' }, prediction: [{ probabilityDecimal: 120 }] }],
    ['integers', { ...patient, multipleBirthInteger: 1.5, photo: [{ size: -3, contentType: 'image/png', data: 'not base64!' }] }],
    ['an empty complex value in a list, an empty object', { ...patient, name: [{}], maritalStatus: {} }],
    ['a resource inside an unknown property', { ...patient, stray: { resourceType: 'Organization' } }],
    ['a resource in place of a data type', { ...patient, managingOrganization: { resourceType: 'Organization', reference: 'Organization/1' } }],
    [
      'timing invariants',
      {
        resourceType: 'MedicationRequest',
        status: 'active',
        intent: 'order',
        medicationCodeableConcept: { text: 'x' },
        subject,
        dosageInstruction: [{ timing: { repeat: { duration: -1, periodMax: 2 } } }],
      },
    ],
    ['not an object', [patient]],
    ['no resourceType', { id: 'x' }],
  ];
}

describe('the compiled validator finds what the reference finds', () => {
  it('on every sample: the Synthea resources alone and as records, the converted HL7 v2 messages, the expected bundles', () => {
    const t = tally();
    for (const type of syntheaTypes()) for (const r of synthea(type)) compare(t, `${type}/${r.id}`, r);
    for (const r of syntheaRecords()) compare(t, `record ${String((r.entry as Json[] | undefined)?.length ?? r.resourceType)}`, r);
    for (const bundleType of ['transaction', 'collection'] as const) {
      for (const [name, b] of convertedSamples(bundleType)) compare(t, `${name} (${bundleType})`, b);
    }
    for (const name of expectedBundleNames()) compare(t, name, expectedBundle(name));
    expect(t.mismatches.slice(0, 5)).toEqual([]);
    expect(t.values).toBe(2 * (7160 + 186 + 2 * 69 + 64));
    expect(t.withErrors).toBeGreaterThanOrEqual(2 * 5); // Microsoft's converter left defects in 5 bundles
  }, 600_000);

  it('on thousands of broken variants: every value of a sample of each kind removed, retyped, emptied, nulled, extended', () => {
    const t = tally();
    const bases: [string, Json][] = [
      ...syntheaTypes().map((type): [string, Json] => [type, synthea(type)[0] as unknown as Json]),
      ...convertedSamples('transaction')
        .filter(([name]) => /^(ADT_A01|ORU|VXU|SIU|MDM|OML|RDE)/i.test(name))
        .slice(0, 4)
        .map(([name, b]): [string, Json] => [name, b as unknown as Json]),
    ];
    for (const [name, base] of bases) for (const [what, v] of variants(base)) compare(t, `${name}: ${what}`, v);
    for (const [what, v] of handWritten()) compare(t, what, v);
    console.info(`compared ${t.values} validations (${t.values / 2} variants × bindings on/off), ${t.withErrors} with errors, ${t.kinds.size} kinds of issue`);
    expect(t.mismatches.slice(0, 5)).toEqual([]);
    expect(t.values).toBeGreaterThan(5_000);
    expect(t.withErrors / t.values).toBeGreaterThan(0.5);
    // every kind of issue the validators report was met, so each was compared
    const kinds = [...t.kinds].join('\n');
    for (const kind of [
      'Missing required property',
      'Invalid additional property',
      'Expected array of values for property',
      'Expected single value for property',
      'Invalid JSON type: expected string, but got number',
      'Invalid date format',
      'String must contain non-whitespace content',
      'Invalid null value',
      'Invalid empty non-primitive value',
      'Expected number to be an integer',
      'Invalid base…Binary format',
      'is not in the required value set',
      'Constraint pat-…',
      'Constraint prr-…',
      'Constraint org-…',
      'Constraint bdl-…',
      'Constraint ext-…',
      'Constraint dom-…',
      'Conflicting choice of type properties',
      'Invalid reference: got',
      'Unknown data type',
      'Invalid resource type',
      'throws',
    ]) {
      expect(kinds, kind).toContain(kind);
    }
  }, 600_000);
});
