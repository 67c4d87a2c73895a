import type { Bundle, Encounter, MedicationRequest, Observation, Patient, Resource } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { codeNode } from '@/engine/nodes/code.execute';
import { runNode } from '../../../../tests/support/engine/node-context';
import { expectedBundle, expectedBundleNames, synthea } from '../../../../tests/support/clinical/fhir';
import { generateCode, RequestNotUnderstood } from './generate';

/** Real samples: the Synthea patients, as a searchset Bundle; every Observation with a number in the HL7 v2 → FHIR Bundles. */
const patients = synthea<Patient>('Patient');
const searchset = (resources: Resource[]): Bundle => ({ resourceType: 'Bundle', type: 'searchset', entry: resources.map((resource) => ({ resource })) });
const patientBundle = searchset(patients);
const observations = expectedBundleNames()
  .flatMap((n) => (expectedBundle(n).entry ?? []).map((e) => e.resource))
  .filter((r): r is Observation => r?.resourceType === 'Observation' && r.valueQuantity?.value !== undefined);
const mixedBundle = searchset([...patients.slice(0, 3), ...observations, ...synthea('Condition').slice(0, 5)]);

/** Runs a generated body as the code node runs it: in its QuickJS sandbox. */
async function run(source: string, input: unknown): Promise<unknown> {
  return (await runNode(codeNode, { source }, { input })).outputs.output;
}

function ageToday(birthDate: string, until?: string): number {
  const born = new Date(birthDate);
  const end = until ? new Date(until) : new Date();
  let years = end.getUTCFullYear() - born.getUTCFullYear();
  if (end.getUTCMonth() < born.getUTCMonth() || (end.getUTCMonth() === born.getUTCMonth() && end.getUTCDate() < born.getUTCDate())) years--;
  return years;
}

const official = (p: Patient) => p.name!.find((n) => n.use === 'official') ?? p.name![0]!;

describe('code for custom nodes, generated offline', () => {
  it("lists each patient's name (HumanName as text) and age from a Synthea Bundle", async () => {
    const g = generateCode("list each patient's name and age", patientBundle);
    expect(g.fields).toEqual([
      { asked: 'name', path: 'name' },
      { asked: 'age', path: 'birthDate (to deceasedDateTime if deceased)' },
    ]);
    const out = (await run(g.source, patientBundle)) as { name: string; age: number }[];
    expect(out).toHaveLength(patients.length);
    patients.forEach((p, i) => {
      const n = official(p);
      expect(out[i]).toEqual({ name: [...(n.prefix ?? []), ...(n.given ?? []), n.family].join(' '), age: ageToday(p.birthDate!, p.deceasedDateTime) });
    });
    expect(g.explanation).toMatch(/Bundle's entries/);
  });

  it('keeps only observations with a value above 100, reading valueQuantity.value and leaving the patients out', async () => {
    const g = generateCode('keep only observations with a value above 100', mixedBundle);
    expect(g.fields).toEqual([{ asked: 'value', path: 'valueQuantity.value' }]);
    const out = (await run(g.source, mixedBundle)) as Observation[];
    const expected = observations.filter((o) => o.valueQuantity!.value! > 100);
    expect(expected.length).toBeGreaterThan(1);
    expect(out).toEqual(expected);
    expect(g.steps).toContain('Keeps the Observation resources.');
  });

  it('drops the matching records when asked to remove them', async () => {
    const g = generateCode('remove observations whose value is below 50', observations);
    expect(await run(g.source, observations)).toEqual(observations.filter((o) => !(o.valueQuantity!.value! < 50)));
  });

  it('counts patients by gender, and keeps patients by their age', async () => {
    const counts = await run(generateCode('count patients by gender', patientBundle).source, patientBundle);
    const expected: Record<string, number> = {};
    for (const p of patients) expected[p.gender!] = (expected[p.gender!] ?? 0) + 1;
    expect(counts).toEqual(expected);
    const old = (await run(generateCode('keep patients older than 60', patients).source, patients)) as Patient[];
    expect(old.map((p) => p.id)).toEqual(patients.filter((p) => ageToday(p.birthDate!, p.deceasedDateTime) > 60).map((p) => p.id));
  });

  it('converts glucose from mg/dL to mmol/L only where the unit is mg/dL', async () => {
    const g = generateCode('convert glucose values from mg/dL to mmol/L', observations);
    const out = (await run(g.source, observations)) as Observation[];
    const glucose = out.find((o) => o.code?.coding?.[0]?.display === 'GLUCOSE');
    expect(glucose?.valueQuantity).toMatchObject({ value: 10.1, unit: 'mmol/L' }); // 182 mg/dL
    const heart = out.find((o) => o.valueQuantity?.code === 'beats/min');
    expect(heart?.valueQuantity).toMatchObject({ value: 44 });
  });

  it('converts a plain field from lb to kg, renaming weight_lb', async () => {
    const g = generateCode('convert weights from lb to kg', [{ id: 'a', weight_lb: 154 }]);
    expect(await run(g.source, [{ id: 'a', weight_lb: 154 }])).toEqual([{ id: 'a', weight_kg: 69.9 }]);
  });

  it("formats dates, dedupes and sorts by the sample's fields", async () => {
    const first = patients[0]!;
    const g = generateCode('format birthDate as DD/MM/YYYY', first);
    const [y, m, d] = first.birthDate!.split('-');
    expect(await run(g.source, first)).toMatchObject({ id: first.id, birthDate: `${d}/${m}/${y}` });

    const twice = [...patients, ...patients];
    const sorted = (await run(generateCode('remove duplicates by id and sort by birth date, newest first', twice).source, twice)) as Patient[];
    expect(sorted.map((p) => p.id)).toEqual(
      [...patients].sort((a, b) => (a.birthDate! < b.birthDate! ? 1 : a.birthDate! > b.birthDate! ? -1 : 0)).map((p) => p.id),
    );
  });

  it('picks and renames fields, flattens nested objects, computes BMI', async () => {
    const g = generateCode('return the id, gender and birth date; rename birthDate to dob', patients);
    expect(await run(g.source, patients.slice(0, 2))).toEqual(patients.slice(0, 2).map((p) => ({ id: p.id, gender: p.gender, dob: p.birthDate })));
    expect(await run(generateCode('flatten the object').source, { a: { b: [1, { c: 2 }] } })).toEqual({ 'a.b.0': 1, 'a.b.1.c': 2 });
    expect(
      await run(generateCode('compute BMI from weight in lb and height in cm', { weight_lb: 154, height_cm: 175 }).source, { weight_lb: 154, height_cm: 175 }),
    ).toMatchObject({ bmi: 22.8 });
  });

  it('is deterministic, and the code works without a sample on a list or a Bundle', async () => {
    expect(generateCode("list each patient's name and age").source).toBe(generateCode("list each patient's name and age").source);
    const g = generateCode('keep only observations with a value above 100');
    expect(g.source).toContain('r.valueQuantity?.value');
    expect(await run(g.source, searchset(observations))).toEqual(observations.filter((o) => o.valueQuantity!.value! > 100));
    expect(await run(g.source, observations)).toEqual(observations.filter((o) => o.valueQuantity!.value! > 100));
  });

  it('reads words that are values in the sample (female, active, deceased) and references (by patient) as such', async () => {
    const female = (await run(generateCode('keep only female patients', patientBundle).source, patientBundle)) as Patient[];
    expect(female.map((p) => p.id)).toEqual(patients.filter((p) => p.gender === 'female').map((p) => p.id));
    const living = (await run(generateCode('remove patients who are deceased', patients).source, patients)) as Patient[];
    expect(living.map((p) => p.id)).toEqual(patients.filter((p) => !p.deceasedDateTime).map((p) => p.id));
    const meds = synthea<MedicationRequest>('MedicationRequest');
    const active = generateCode('keep only medication requests with status active', meds);
    expect(await run(active.source, meds)).toEqual(meds.filter((m) => m.status === 'active'));
    const encounters = synthea<Encounter>('Encounter').slice(0, 40);
    const byPatient = generateCode('dedupe encounters by patient', encounters);
    expect(byPatient.fields).toEqual([{ asked: 'patient', path: 'subject.reference' }]);
    const once = (await run(byPatient.source, encounters)) as { subject: { reference: string } }[];
    expect(once.map((e) => e.subject.reference)).toEqual([...new Set(encounters.map((e) => e.subject!.reference))]);
    const latest = generateCode('sort encounters by start date, most recent first', encounters);
    expect(latest.fields).toEqual([{ asked: 'start date', path: 'period.start' }]);
  });

  it('compares the items themselves in a list of plain values', async () => {
    const values = observations.map((o) => o.valueQuantity!.value!);
    const g = generateCode('keep the values above 100 and sort them, highest first', values);
    expect(await run(g.source, values)).toEqual(values.filter((v) => v > 100).sort((a, b) => b - a));
  });

  it('says what it could not find in the sample rather than address a field that is not there', () => {
    const g = generateCode('keep patients older than 60 and sort them by shoe size', patients);
    expect(g.warnings).toEqual(['No field matches "shoe size" in the sample: the records were not sorted.']);
    expect(g.source).not.toMatch(/shoe/i);
    // nor is another number taken for it
    expect(() => generateCode('keep patients with a shoe size above 40', patients)).toThrow(
      'No field matches "shoe size" in the sample: the condition "above 40" was left out.',
    );
  });

  it('refuses a request it cannot read, saying what it read', () => {
    expect(() => generateCode('make it better', patientBundle)).toThrow(RequestNotUnderstood);
    try {
      generateCode('sort by shoe size', patients);
    } catch (e) {
      expect((e as RequestNotUnderstood).understood).toContain('No field matches "shoe size" in the sample: the records were not sorted.');
    }
  });
});
