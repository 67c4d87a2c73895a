import { valueSetCodes } from './code-systems';
import type { FhirIssue } from './validate';

/**
 * The check of one value of a required binding against its value set, shared by the reference validator
 * (validate.ts, on the values @medplum/core collects) and the compiled one (compiled/walk.ts, as it walks): the same
 * words, the same decisions. Value sets that cannot be listed from the shipped definitions are not checked.
 */

interface Coding {
  system?: string;
  code?: string;
}

interface Listed {
  codes: ReadonlySet<string>;
  plain: Set<string>;
  message: string;
}

const listed = new Map<string, Listed | null>();

/** The value set of a binding (`url|version`: the version is ignored), listed once per process; undefined when it cannot be. */
export function listedValueSet(binding: string): Listed | undefined {
  const url = binding.split('|')[0]!;
  let l = listed.get(url);
  if (l === undefined) {
    const codes = valueSetCodes(url);
    if (codes) {
      const plain = new Set([...codes].map((k) => k.slice(k.lastIndexOf('|') + 1)));
      const allowed = [...plain].slice(0, 12).join(', ') + (plain.size > 12 ? ', …' : '');
      l = { codes, plain, message: ` is not in the required value set ${url.slice(url.lastIndexOf('/') + 1)} (${allowed})` };
    } else l = null;
    listed.set(url, l);
  }
  return l ?? undefined;
}

/** The issue of a `code`, `Coding` or `CodeableConcept` value outside the listed value set, or undefined. */
export function codeIssue(vs: Listed, type: string, value: unknown, path: string): FhirIssue | undefined {
  let bad: string | undefined;
  if (type === 'code' && typeof value === 'string') {
    if (!vs.plain.has(value)) bad = `"${value}"`;
  } else if (type === 'Coding') {
    const c = value as Coding;
    if (c.code !== undefined && !vs.codes.has(`${c.system}|${c.code}`)) bad = `${c.system ?? '(no system)'}|${c.code}`;
  } else if (type === 'CodeableConcept') {
    const codings = ((value as { coding?: Coding[] }).coding ?? []).filter((c) => c.code !== undefined);
    if (codings.length && !codings.some((c) => vs.codes.has(`${c.system}|${c.code}`))) {
      bad = codings.map((c) => `${c.system ?? '(no system)'}|${c.code}`).join(', ');
    }
  }
  return bad ? { severity: 'error', code: 'code-invalid', path, message: bad + vs.message } : undefined;
}
