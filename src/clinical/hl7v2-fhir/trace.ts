import type { Bundle } from '@medplum/fhirtypes';
import { decode, splitField } from '../hl7v2';
import type { Hl7v2Message } from '../hl7v2';

export interface MappingRule {
  /** HL7 v2 path, e.g. `PID-5.1`, `OBX-5` (repetitions and occurrences folded). */
  hl7: string;
  /** Where the value lands in the bundle, e.g. `Patient.name[].family`. */
  fhir: string[];
  /** The value seen in the sample. */
  example: string;
}

const norm = (v: string) => v.trim().toLowerCase();
/** HL7 dates and times as FHIR writes them (`19880818` → `1988-08-18`, `202401051230` → `2024-01-05T12:30`). */
function fhirDate(v: string): string | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})?)?/.exec(v);
  if (!m) return undefined;
  return m[4] ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5] ?? '00'}` : `${m[1]}-${m[2]}-${m[3]}`;
}

/** Every string or number in the bundle's resources, by value, with its path (array positions folded to `[]`). */
function leaves(bundle: Bundle): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const walk = (v: unknown, path: string) => {
    if (typeof v === 'string' || typeof v === 'number') {
      const key = norm(String(v));
      if (!out.has(key)) out.set(key, new Set());
      out.get(key)!.add(path);
      // a dateTime is also found by its date, and its minutes
      if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v))
        for (const cut of [v.slice(0, 10), v.slice(0, 16)]) (out.get(norm(cut)) ?? out.set(norm(cut), new Set()).get(norm(cut))!).add(path);
    } else if (Array.isArray(v)) v.forEach((x) => walk(x, `${path}[]`));
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) if (k !== 'id' && k !== 'reference' && k !== 'fullUrl') walk(x, `${path}.${k}`);
  };
  for (const e of bundle.entry ?? []) if (e.resource) walk(e.resource, e.resource.resourceType);
  return out;
}

/**
 * The HL7 v2 → FHIR mapping a conversion applied, read back from a sample: each field, component and sub-component
 * value of the message (3 characters or more, and not the message header's own) found where it landed in the
 * bundle. Rules observed, not assumed: a value the converter changed (a coded value made a FHIR code) is not traced.
 */
export function traceMapping(message: Hl7v2Message, bundle: Bundle): { rules: MappingRule[]; untraced: Array<{ hl7: string; example: string }> } {
  const index = leaves(bundle);
  const rules = new Map<string, MappingRule>();
  const untraced = new Map<string, string>();
  for (const seg of message.segments) {
    if (seg.id === 'MSH' || seg.id === 'FHS' || seg.id === 'BHS') continue;
    seg.fields.forEach((raw, n) => {
      if (n === 0 || !raw) return;
      splitField(raw, message.delimiters).forEach((rep) =>
        rep.forEach((comp, c) =>
          comp.forEach((sub, s) => {
            const value = decode(sub, message.delimiters).trim();
            if (value.length < 3) return;
            const path = `${seg.id}-${n}${rep.length > 1 || comp.length > 1 ? `.${c + 1}` : ''}${comp.length > 1 ? `.${s + 1}` : ''}`;
            const found = index.get(norm(value)) ?? (fhirDate(value) ? index.get(norm(fhirDate(value)!)) : undefined);
            if (!found) {
              if (!rules.has(path)) untraced.set(path, value);
              return;
            }
            const rule = rules.get(path) ?? { hl7: path, fhir: [], example: value };
            for (const f of found) if (!rule.fhir.includes(f)) rule.fhir.push(f);
            rules.set(path, rule);
            untraced.delete(path);
          }),
        ),
      );
    });
  }
  return { rules: [...rules.values()], untraced: [...untraced].map(([hl7, example]) => ({ hl7, example })) };
}
