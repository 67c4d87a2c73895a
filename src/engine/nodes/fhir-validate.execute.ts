import { profileFromJson, knownProfile } from '@/clinical/fhir/profiles';
import { type FhirIssue, formatIssue, validateFhir } from '@/clinical/fhir/validate';
import { rememberValid } from '@/clinical/fhir/validated';
import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { fhirValidate } from './fhir-validate';

function kindIssue(value: unknown, expect: 'any' | 'resource' | 'bundle'): FhirIssue | undefined {
  const type = value && typeof value === 'object' ? (value as { resourceType?: unknown }).resourceType : undefined;
  if (typeof type !== 'string') return undefined;
  if (expect === 'bundle' && type !== 'Bundle')
    return { severity: 'error', code: 'structure', path: 'resourceType', message: `Expected a Bundle, got a ${type}` };
  if (expect === 'resource' && type === 'Bundle')
    return {
      severity: 'error',
      code: 'structure',
      path: 'resourceType',
      message: 'Expected a single resource, got a Bundle (split it first, or set expect to bundle)',
    };
  return undefined;
}

export const fhirValidateNode = implementNode(fhirValidate, {
  async execute(ctx, inputs, config) {
    const value = inputs.resource;
    const profile = config.profile ? knownProfile(config.profile) : config.profile_definition ? profileFromJson(config.profile_definition) : undefined;
    if (config.profile && !profile) throw new NodeError('FHIR_PROFILE_UNAVAILABLE', `The profile ${config.profile} is not in the installed definitions.`);
    const issues = [
      ...(kindIssue(value, config.expect) ? [kindIssue(value, config.expect)!] : []),
      ...validateFhir(value, {
        ...(profile ? { profile } : {}),
        ...(config.declared_profiles ? { declaredProfiles: knownProfile } : {}),
        bindings: config.bindings,
      }),
    ];
    const counted = issues.filter((i) => i.severity === 'error' || (config.warnings_invalid && i.severity === 'warning'));
    const what = value && typeof value === 'object' ? String((value as { resourceType?: unknown }).resourceType ?? 'value') : 'value';
    for (const w of issues.filter((i) => i.severity === 'warning' && !config.warnings_invalid).slice(0, 20)) ctx.log('warn', formatIssue(w));
    const unchecked = [...new Set(issues.filter((i) => i.code === 'not-supported').map((i) => i.message.replace(/^The declared profile (\S+) .*$/, '$1')))];
    if (unchecked.length) ctx.log('info', `declared profile(s) not checked (not built in): ${unchecked.join(', ')}`);
    if (counted.length === 0) {
      // what reads `valid` decides how: by identity when only nodes that never change it nor pass it on do
      // (fhir-deidentify, fhir-write: no JSON snapshot), else by a snapshot of its text
      rememberValid(value, ctx.outputTargets?.('valid'));
      ctx.log('info', `${what} is valid${profile ? ` against ${profile.name ?? profile.url}` : ''}`);
      return { outputs: { valid: value } };
    }
    ctx.log('info', `${what} is invalid: ${counted.length} issue(s)`);
    if (config.on_invalid === 'fail') {
      const list = counted.slice(0, 20).map(formatIssue).join('; ');
      throw new NodeError('FHIR_INVALID', `The ${what} is not valid FHIR R4: ${list}${counted.length > 20 ? ` (and ${counted.length - 20} more)` : ''}`);
    }
    return { outputs: { invalid: { resource: value, issues } } };
  },
});
