import { describe, expect, it } from 'vitest';
import { knownProfile } from '@/clinical/fhir/profiles';
import { expectedBundle, synthea } from '../../../tests/support/clinical/fhir';
import type { FhirIssue } from '@/clinical/fhir/validate';
import { failure, runNode, testContext } from '../../../tests/support/engine/node-context';
import { passedUnchanged } from '@/clinical/fhir/validated';
import { fhirValidateNode as fhirValidate } from './fhir-validate.execute';

const bare = { resourceType: 'Patient', gender: 'F', birthDate: '1927-05-21' };
const issuesOf = (r: { outputs: Record<string, unknown> }) => (r.outputs.invalid as { issues: FhirIssue[] }).issues.map((i) => `${i.path}: ${i.message}`);

describe('fhir-validate', () => {
  it('works with its default config: a Synthea Patient and the ADT^A01 bundle pass, unchanged', async () => {
    const ctx = testContext();
    const patient = synthea('Patient')[0]!;
    const r = await runNode(fhirValidate, {}, { resource: patient }, ctx);
    expect(r.outputs).toEqual({ valid: patient });
    expect(ctx.logs.map((l) => l.message)).toEqual(['Patient is valid']);
    const bundle = expectedBundle('ADT-A01-01');
    expect((await runNode(fhirValidate, {}, { resource: bundle })).outputs.valid).toBe(bundle);
    expect(fhirValidate.ports(fhirValidate.config.parse({})).outputs.map((p) => `${p.name}:${p.type}`)).toEqual(['valid:any', 'invalid:json']);
  });

  it('routes a bundle with defects to invalid, each issue naming its entry and element', async () => {
    const bundle = expectedBundle('ADT04-23');
    const r = await runNode(fhirValidate, {}, { resource: bundle });
    expect(Object.keys(r.outputs)).toEqual(['invalid']);
    expect((r.outputs.invalid as { resource: unknown }).resource).toBe(bundle);
    expect(issuesOf(r)).toContain(
      'Bundle.entry[4].resource.telecom[0].use: "HOME" is not in the required value set contact-point-use (home, work, temp, old, mobile)',
    );
  });

  it('checks the US Core Patient profile of its example config: the documented four errors; Synthea Patients pass', async () => {
    const r = await runNode(fhirValidate, fhirValidate.example, { resource: bare });
    expect(issuesOf(r).sort()).toEqual([
      'Patient.gender: "F" is not in the required value set administrative-gender (male, female, other, unknown)',
      'Patient.identifier: Missing required property',
      'Patient.name: Missing required property',
      'Patient: Constraint us-core-6 not met: Either Patient.name.given and/or Patient.name.family SHALL be present ' +
        'or a Data Absent Reason Extension SHALL be present.',
    ]);
    for (const p of synthea('Patient'))
      expect(Object.keys((await runNode(fhirValidate, fhirValidate.example, { resource: p })).outputs), p.id).toEqual(['valid']);
    expect(fhirValidate.ports(fhirValidate.config.parse(fhirValidate.example)).outputs[0]!.type).toBe('fhir-resource');
  });

  it('takes a pasted StructureDefinition as profile, and refuses one without snapshot at config time', async () => {
    const sd = knownProfile('http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient')!;
    const r = await runNode(fhirValidate, { profile_definition: sd }, { resource: { ...bare, gender: 'female' } });
    expect(issuesOf(r)).toHaveLength(3);
    const { snapshot: _s, ...noSnapshot } = sd;
    const refused = fhirValidate.config.safeParse({ profile_definition: noSnapshot });
    expect(refused.error?.issues[0]?.message).toBe('the StructureDefinition has no snapshot (publish it with its snapshot, as IG packages do)');
    expect(fhirValidate.config.safeParse({ profile: sd.url, profile_definition: sd }).success).toBe(false);
    expect(fhirValidate.config.safeParse({ profile: 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-condition' }).success).toBe(false);
  });

  it('checks the profiles resources declare, when asked: Synthea MedicationRequests pass US Core; one without requester does not', async () => {
    const requests = synthea('MedicationRequest').slice(0, 50);
    const bundle = { resourceType: 'Bundle', type: 'collection', entry: requests.map((resource) => ({ fullUrl: `urn:uuid:${resource.id}`, resource })) };
    expect(Object.keys((await runNode(fhirValidate, { declared_profiles: true }, { resource: bundle })).outputs)).toEqual(['valid']);
    delete (requests[3] as { requester?: unknown }).requester;
    expect(Object.keys((await runNode(fhirValidate, {}, { resource: bundle })).outputs)).toEqual(['valid']);
    const r = await runNode(fhirValidate, { declared_profiles: true }, { resource: bundle });
    expect(issuesOf(r).filter((i) => !i.includes('not known here'))).toEqual(['Bundle.entry[3].resource.requester: Missing required property']);
    const ctx = testContext();
    await runNode(fhirValidate, { declared_profiles: true }, { resource: synthea('Condition')[0] }, ctx);
    expect(ctx.logs.map((l) => l.message)).toEqual([
      'declared profile(s) not checked (not built in): http://hl7.org/fhir/us/core/StructureDefinition/us-core-condition-encounter-diagnosis',
      'Condition is valid',
    ]);
  });

  it('sends a resource of the wrong kind to invalid (expect bundle)', async () => {
    const r = await runNode(fhirValidate, { expect: 'bundle' }, { resource: synthea('Patient')[0] });
    expect(issuesOf(r)).toEqual(['resourceType: Expected a Bundle, got a Patient']);
  });

  it('logs warnings, and counts them as invalid when asked', async () => {
    const condition = { ...synthea('Condition')[0]!, subject: { reference: 'Practitioner/1' } };
    const ctx = testContext();
    expect(Object.keys((await runNode(fhirValidate, {}, { resource: condition }, ctx)).outputs)).toEqual(['valid']);
    expect(ctx.logs[0]).toMatchObject({
      level: 'warn',
      message: 'warning at Condition.subject: Invalid reference: got "Practitioner", expected "Patient", "Group"',
    });
    const r = await runNode(fhirValidate, { warnings_invalid: true }, { resource: condition });
    expect(issuesOf(r)).toEqual(['Condition.subject: Invalid reference: got "Practitioner", expected "Patient", "Group"']);
  });

  it('fails with FHIR_INVALID listing the issues when on_invalid is fail', async () => {
    const e = await failure(runNode(fhirValidate, { on_invalid: 'fail' }, { resource: { ...bare, birthDate: '21/05/1927' } }));
    expect(e.code).toBe('FHIR_INVALID');
    expect(e.message).toBe(
      'The Patient is not valid FHIR R4: error at Patient.birthDate: Invalid date format; ' +
        'error at Patient.gender: "F" is not in the required value set administrative-gender (male, female, other, unknown)',
    );
    const text = await runNode(fhirValidate, {}, { resource: 'MSH|^~\\&|' });
    expect(issuesOf(text)).toEqual([': Not a FHIR resource: the value is string, not an object']);
  });

  // by identity when only nodes that never change it read it, else by its text
  it('remembers a value it passed, so fhir-write will not check it again', async () => {
    const remembered = async (targets: readonly string[] | undefined, change?: (b: { id?: string }) => void) => {
      const bundle = expectedBundle('ADT-A01-01');
      await runNode(fhirValidate, {}, { resource: bundle }, testContext({ outputTargets: () => targets }));
      change?.(bundle);
      return passedUnchanged(bundle);
    };
    for (const targets of [['fhir-deidentify'], ['fhir-write'], ['fhir-deidentify', 'fhir-write'], undefined, [], ['code'], ['fhir-deidentify', 'code']])
      expect(await remembered(targets)).toBe(true);
    // read by a node that may change it (or by none known): a change made since is seen, and the value is checked again
    for (const targets of [undefined, [], ['code'], ['fhir-deidentify', 'code']]) expect(await remembered(targets, (b) => (b.id = 'changed'))).toBe(false);
  });
});
