import { deidentifyFhir } from '@/clinical/deid/fhir';
import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { fhirDeidentify } from './fhir-deidentify';

function inputProblem(value: unknown, expect: 'any' | 'resource' | 'bundle'): string | undefined {
  const type = value && typeof value === 'object' && !Array.isArray(value) ? (value as { resourceType?: unknown }).resourceType : undefined;
  if (typeof type !== 'string' || !/^[A-Z][A-Za-z]+$/.test(type)) return 'Not a FHIR resource: no resourceType.';
  if (expect === 'bundle' && type !== 'Bundle') return `Expected a Bundle, got a ${type}.`;
  if (expect === 'resource' && type === 'Bundle') return 'Expected a single resource, got a Bundle.';
  return undefined;
}

export const fhirDeidentifyNode = implementNode(fhirDeidentify, {
  async execute(ctx, inputs, config) {
    const value = inputs.resource;
    const problem = inputProblem(value, config.expect);
    if (problem) {
      if (config.on_invalid === 'fail') throw new NodeError('FHIR_INVALID', problem);
      ctx.log('info', problem);
      return { outputs: { invalid: { value, error: problem } } };
    }
    const key = await ctx.services.orgKey('deidentify');
    let result;
    try {
      result = deidentifyFhir(value, {
        key,
        rules: config.rules,
        preset: config.preset,
        maxShiftDays: config.date_shift_days,
        birthDate: { keepYear: config.keep_birth_year, over89: config.over_89 },
        patientIdentity: config.patient_identity,
      });
    } catch (e) {
      throw new NodeError('DEID_RULE_FAILED', e instanceof Error ? e.message : String(e));
    }
    ctx.log('info', `de-identified ${result.resources} resource(s) of a ${(value as { resourceType: string }).resourceType}`);
    return { outputs: { resource: result.value } };
  },
});
