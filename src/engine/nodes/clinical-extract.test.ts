import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateFhir } from '@/clinical/fhir/validate';
import { languageModel } from '@/server/services/executions/node-services';
import { runNode, testContext, testServices } from '../../../tests/support/engine/node-context';
import { clinicalExtractNode as clinicalExtract } from './clinical-extract.execute';

const withModels = () => testContext({ services: testServices({ languageModel }) });
type Bundle = { type: string; entry: Array<{ resource: Record<string, unknown> & { resourceType: string } }> };

describe('clinical-extract', () => {
  it('turns the documented example into a valid collection Bundle about the patient', async () => {
    const r = await runNode(
      clinicalExtract,
      clinicalExtract.example,
      { text: 'Hypertension. Started lisinopril 10 mg po daily. BP 150/95 mmHg.' },
      withModels(),
    );
    const bundle = r.outputs.bundle as Bundle;
    expect(validateFhir(bundle).filter((i) => i.severity === 'error')).toEqual([]);
    expect(bundle.type).toBe('collection');
    expect(bundle.entry.map((e) => e.resource.resourceType)).toEqual(['Condition', 'MedicationStatement', 'Observation']);
    const [condition, med, obs] = bundle.entry.map((e) => e.resource);
    expect(condition).toMatchObject({ code: { text: 'hypertension' }, subject: { reference: 'Patient/123' } });
    expect(med).toMatchObject({ medicationCodeableConcept: { text: 'lisinopril' }, dosage: [{ text: 'lisinopril 10 mg po daily', route: { text: 'po' } }] });
    expect(obs).toMatchObject({ code: { text: 'bp' }, valueString: '150/95 mmHg' });
  });

  it('extracts a Synthea note with the default config, the patient taken from the input', async () => {
    const doc = JSON.parse(readFileSync('/work/shared/data/synthea-10/DocumentReference.000.ndjson', 'utf8').split('\n')[0]!);
    const text = Buffer.from(doc.content[0].attachment.data, 'base64').toString('utf8');
    const patient = (doc.subject.reference as string).replace(/^urn:uuid:/, 'Patient/');
    const ctx = withModels();
    const r = await runNode(clinicalExtract, {}, { text: { text, patient_reference: patient } }, ctx);
    const bundle = r.outputs.bundle as Bundle;
    expect(validateFhir(bundle).filter((i) => i.severity === 'error')).toEqual([]);
    const meds = bundle.entry
      .filter((e) => e.resource.resourceType === 'MedicationStatement')
      .map((e) => (e.resource.medicationCodeableConcept as { text: string }).text);
    expect(meds).toEqual(['acetaminophen', 'paclitaxel', 'nitrofurantoin', 'phenazopyridine hydrochloride', 'cisplatin']);
    expect(bundle.entry.every((e) => (e.resource.subject as { reference: string }).reference === patient)).toBe(true);
    expect(ctx.logs.map((l) => l.message)).toContainEqual(expect.stringMatching(/^extracted \d+ Condition, 5 MedicationStatement, \d+ Observation$/));
  });

  it('without a patient, subjects say so and a warning is logged; the Bundle stays valid', async () => {
    const ctx = withModels();
    const r = await runNode(clinicalExtract, {}, { text: 'Asthma. Albuterol 90 mcg inhaled every 4 hours as needed.' }, ctx);
    const bundle = r.outputs.bundle as Bundle;
    expect(validateFhir(bundle).filter((i) => i.severity === 'error')).toEqual([]);
    expect(bundle.entry[0]!.resource.subject).toEqual({ display: 'patient not identified' });
    expect(ctx.logs[0]!.level).toBe('warn');
  });
});
