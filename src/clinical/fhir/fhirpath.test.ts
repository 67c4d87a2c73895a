import { describe, expect, it } from 'vitest';
import { extractValues, FhirPathError, fhirPathProblem } from './fhirpath';
import { expectedBundle, synthea } from '../../../tests/support/clinical/fhir';

describe('extractValues', () => {
  const patient = synthea('Patient')[0]!;

  it('gives the first value of each named expression on a Synthea Patient, null when none', () => {
    const v = extractValues(patient, {
      family: "name.where(use = 'official').family",
      birthDate: 'birthDate',
      ssn: "identifier.where(system = 'http://hl7.org/fhir/sid/us-ssn').value",
      race: "extension.where(url = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-race').extension.where(url = 'ombCategory').value.display",
      photo: 'photo.url',
    });
    expect(v).toEqual({ family: 'Medhurst46', birthDate: '1927-05-21', ssn: '999-94-5397', race: 'White', photo: null });
  });

  it('gives every value in "all" mode, complex values as JSON', () => {
    const v = extractValues(patient, { given: 'name.given', official: "name.where(use = 'official')" }, 'all');
    expect(v.given).toEqual(['Sumiko254', 'Larue605', 'Sumiko254', 'Larue605']);
    expect(v.official).toEqual([{ use: 'official', family: 'Medhurst46', given: ['Sumiko254', 'Larue605'], prefix: ['Mrs.'] }]);
  });

  it('reaches into a bundle with ofType()', () => {
    const v = extractValues(expectedBundle('ADT-A01-01'), {
      conditions: 'Bundle.entry.resource.ofType(Condition).count()',
      patientId: 'Bundle.entry.resource.ofType(Patient).id',
    });
    expect(v).toEqual({ conditions: 3, patientId: '9e909e52-61a1-be50-1878-a12ef8c36346' });
  });

  it('throws FhirPathError for an expression that does not parse', () => {
    expect(() => extractValues(patient, { bad: 'name.where(' })).toThrow(FhirPathError);
  });

  it('finds at config time the functions that would only fail at run time: unknown ones, and those needing a server', () => {
    expect(fhirPathProblem("name.where(use = 'official').family.first()")).toBeUndefined();
    expect(fhirPathProblem('birthDate.ageInYears()')).toBe('FHIRPath "birthDate.ageInYears()" cannot run: there is no function ageInYears()');
    expect(fhirPathProblem('subject.resolve().id')).toBe(
      'FHIRPath "subject.resolve().id" cannot run: resolve() needs a server (asynchronous functions such as resolve() and memberOf() are not available here)',
    );
  });
});
