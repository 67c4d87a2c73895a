import { describe, expect, it } from 'vitest';
import { planFhirQueries } from './fhir-queries';

const NOW = new Date('2026-11-25T12:00:00Z');

describe('FHIR queries from plain language (offline)', () => {
  it('finds patients by family name and birth date', () => {
    expect(planFhirQueries('Find patients named Smith born after 1980', NOW).queries).toEqual(['GET /Patient?family=smith&birthdate=ge1980-01-01']);
  });

  it('uses reverse chaining for "patients with" a condition, coded in SNOMED CT', () => {
    expect(planFhirQueries('female patients with type 2 diabetes', NOW).queries).toEqual([
      'GET /Patient?gender=female&_has:Condition:patient:code=http://snomed.info/sct|44054006',
    ]);
  });

  it('codes observations in LOINC, with a threshold and a date range', () => {
    expect(planFhirQueries('HbA1c results above 9 in the last 90 days for patient 123', NOW).queries).toEqual([
      'GET /Observation?patient=123&code=http://loinc.org|4548-4&value-quantity=gt9&date=ge2026-08-27',
    ]);
  });

  it('reads a patient by id, and their latest blood pressure', () => {
    expect(planFhirQueries('latest blood pressure of patient 42', NOW).queries).toEqual([
      'GET /Observation?patient=42&code=http://loinc.org|85354-9&_sort=-date&_count=1',
    ]);
  });

  it('knows encounter classes and medication status', () => {
    expect(planFhirQueries('inpatient admissions in 2025', NOW).queries).toEqual([
      'GET /Encounter?class=http://terminology.hl7.org/CodeSystem/v3-ActCode|IMP&date=ge2025-01-01&date=lt2026-01-01',
    ]);
    expect(planFhirQueries('active medications for patient abc-7', NOW).queries).toEqual(['GET /MedicationRequest?patient=abc-7&status=active']);
  });

  it('says so when it recognises nothing', () => {
    const r = planFhirQueries('make it faster', NOW);
    expect(r.queries).toEqual([]);
    expect(r.reasoning[0]).toMatch(/No FHIR resource recognised/);
  });
});
