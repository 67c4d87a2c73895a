import type { Bundle, Resource } from '@medplum/fhirtypes';

/**
 * How far a converted bundle agrees with a reference bundle (the Microsoft FHIR-Converter's output), by content,
 * never by id (the reference's ids are generated): for the key resource types (KEY_TYPES, the ones the converter
 * is about), how many of each there are, and the key facts — identifiers (of every key type that has them: a
 * diagnosis, an accident, a vaccination or a document known by the wrong number is a miss), names, birth date,
 * gender, encounter class, codes, observation values, what a merge links (Linkage items), and which type of
 * resource refers to which through which element (`Observation.subject→Patient`), between resources of the key
 * types. Each fact is a multiset on both sides; it agrees by the size of their intersection out of the size of
 * their union, so a missing and an extra value both count against. Types outside KEY_TYPES (Practitioner,
 * Organization, Location, Account…) are listed, not compared.
 */

export const KEY_TYPES = [
  'MessageHeader',
  'Provenance',
  'Patient',
  'Encounter',
  'RelatedPerson',
  'AllergyIntolerance',
  'Condition',
  'ServiceRequest',
  'DiagnosticReport',
  'Observation',
  'Immunization',
  'Appointment',
  'DocumentReference',
  'Coverage',
  'Procedure',
  'Linkage',
] as const;
const KEY = new Set<string>(KEY_TYPES);

export interface FactResult {
  /** `count Patient`, `Patient.identifier`, `Observation.value`, `references` … */
  fact: string;
  expected: string[];
  actual: string[];
  agree: number;
  total: number;
}

export interface Comparison {
  facts: FactResult[];
  agree: number;
  total: number;
  /** agree / total (1 when there is nothing to compare) */
  ratio: number;
  /** Resource types of the reference bundle that are not key types (not compared), with their counts */
  notCompared: Record<string, number>;
  /** Our links of NOT_MAPPED_BY_REFERENCE (not compared), with their counts */
  notComparedLinks: Record<string, number>;
}

type Any = Record<string, unknown>;

function codeOf(cc: unknown): string[] {
  const c = cc as { coding?: { code?: string }[]; text?: string } | undefined;
  if (!c) return [];
  const code = c.coding?.find((k) => k.code)?.code ?? c.text;
  return code ? [code.trim()] : [];
}

function num(v: unknown): string {
  return typeof v === 'number' ? String(v) : String(v ?? '');
}

function valueOf(o: Any): string[] {
  if (o.valueQuantity) {
    const q = o.valueQuantity as Any;
    return [`${q.comparator ?? ''}${num(q.value)} ${q.unit ?? q.code ?? ''}`.trim()];
  }
  if (typeof o.valueString === 'string') return [o.valueString.trim()];
  if (o.valueCodeableConcept) return codeOf(o.valueCodeableConcept);
  if (typeof o.valueDateTime === 'string') return [o.valueDateTime.slice(0, 10)];
  if (typeof o.valueTime === 'string') return [o.valueTime];
  if (o.valueRange) {
    const r = o.valueRange as { low?: Any; high?: Any };
    return [`${num(r.low?.value)}-${num(r.high?.value)}`];
  }
  if (o.valueRatio) {
    const r = o.valueRatio as { numerator?: Any; denominator?: Any };
    return [`${num(r.numerator?.value)}:${num(r.denominator?.value)}`];
  }
  if (typeof o.valueBoolean === 'boolean' || typeof o.valueInteger === 'number') return [String(o.valueBoolean ?? o.valueInteger)];
  return [];
}

type Name = { family?: string; given?: string[]; prefix?: string[]; suffix?: string[]; use?: string; period?: { start?: string; end?: string } };

/**
 * Every component of each name: `family|given given|prefix|suffix|use|start-end` (dates to the day), so a middle
 * name, a suffix, a degree, the name type or its validity that one side has and the other lacks is a miss.
 */
function names(list: unknown): string[] {
  const words = (a: string[] | undefined) =>
    (a ?? [])
      .map((x) => x.trim())
      .filter(Boolean)
      .join(' ');
  return ((list as Name[] | undefined) ?? []).map((n) =>
    [
      (n.family ?? '').trim(),
      words(n.given),
      words(n.prefix),
      words(n.suffix),
      n.use ?? '',
      `${n.period?.start?.slice(0, 10) ?? ''}-${n.period?.end?.slice(0, 10) ?? ''}`,
    ]
      .join('|')
      .replace(/\|-$/, ''),
  );
}

/**
 * Identifier values, each up to its first `&`: the Microsoft converter writes an EI that sits inside an EIP (ORC-4
 * placer group number `9adf…&L^4737…&L`) undivided, HL7 sub-component separator and namespace included
 * (`9adf…&L`), where the identifier itself is the first sub-component (`9adf…`).
 */
function identifiers(list: unknown): string[] {
  return ((list as { value?: string }[] | undefined) ?? []).map((i) => (i.value ?? '').split('&')[0]!.trim()).filter(Boolean);
}

/**
 * Links the reference converter makes in no message, whatever the message holds: its Procedure template has an
 * `encounter` that no message template gives a value, and the partial that writes DocumentReference.context.encounter
 * is included by none (FHIR-Converter data/Templates/Hl7v2). There the reference states nothing to agree with or
 * contradict; counting them would only score a converter down for keeping the visit of a procedure or a document.
 * They are left out of `references` on both sides and counted apart (`Comparison.notComparedLinks`).
 */
export const NOT_MAPPED_BY_REFERENCE: readonly string[] = ['Procedure.encounter→Encounter', 'DocumentReference.context.encounter→Encounter'];

/** `Observation.subject→Patient` for every reference of a key-type resource to a key-type resource of the bundle. */
function references(resources: Resource[]): string[] {
  const types = new Map<string, string>();
  for (const r of resources) types.set(`${r.resourceType}/${r.id}`, r.resourceType);
  const out: string[] = [];
  const walk = (v: unknown, from: string, path: string) => {
    if (Array.isArray(v)) return v.forEach((x) => walk(x, from, path));
    if (!v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v as Any)) {
      if (k === 'reference' && typeof x === 'string') {
        const target = types.get(x.replace(/^urn:uuid:/, ''));
        if (target && KEY.has(target)) out.push(`${from}.${path}→${target}`);
      } else if (k !== 'contained') walk(x, from, path ? `${path}.${k}` : k);
    }
  };
  // MessageHeader and Provenance are bookkeeping of the message, not of the care it describes (and the
  // Microsoft converter points them at resources outside the bundle): their references are not compared
  for (const r of resources) if (KEY.has(r.resourceType) && r.resourceType !== 'Provenance' && r.resourceType !== 'MessageHeader') walk(r, r.resourceType, '');
  return out.map((s) => s.replace('.→', '→'));
}

/** The facts of one bundle, fact name → values. */
export function factsOf(bundle: Bundle): Map<string, string[]> {
  const resources = (bundle.entry ?? []).map((e) => e.resource).filter((r): r is Resource => !!r);
  const facts = new Map<string, string[]>();
  const add = (fact: string, values: string[]) => facts.set(fact, [...(facts.get(fact) ?? []), ...values]);
  for (const t of KEY_TYPES) {
    const n = resources.filter((r) => r.resourceType === t).length;
    if (n) add(`count ${t}`, [String(n)]);
  }
  for (const r of resources) {
    // resources of every type are read here by their JSON keys, which their closed interfaces do not index
    const o = r as unknown as Any;
    switch (r.resourceType) {
      case 'Patient':
        add('Patient.identifier', identifiers(o.identifier));
        add('Patient.name', names(o.name));
        if (o.birthDate) add('Patient.birthDate', [String(o.birthDate)]);
        if (o.gender) add('Patient.gender', [String(o.gender)]);
        break;
      case 'RelatedPerson':
        add('RelatedPerson.name', names(o.name));
        break;
      case 'Encounter':
        add('Encounter.class', codeOf({ coding: [o.class] }));
        add('Encounter.identifier', identifiers(o.identifier));
        break;
      case 'Observation':
        add('Observation.code', codeOf(o.code));
        add('Observation.identifier', identifiers(o.identifier));
        add('Observation.value', valueOf(o));
        break;
      case 'Immunization':
        add('Immunization.vaccineCode', codeOf(o.vaccineCode));
        add('Immunization.identifier', identifiers(o.identifier));
        break;
      case 'DocumentReference':
        add('DocumentReference.type', codeOf(o.type));
        add('DocumentReference.identifier', identifiers([o.masterIdentifier, ...((o.identifier as unknown[]) ?? [])].filter(Boolean)));
        break;
      case 'ServiceRequest':
      case 'DiagnosticReport':
        add(`${r.resourceType}.code`, codeOf(o.code));
        add(`${r.resourceType}.identifier`, identifiers(o.identifier));
        break;
      case 'Condition':
      case 'AllergyIntolerance':
      case 'Procedure':
        add(`${r.resourceType}.code`, codeOf(o.code));
        add(`${r.resourceType}.identifier`, identifiers(o.identifier));
        break;
      case 'Appointment':
        add('Appointment.identifier', identifiers(o.identifier));
        add('Appointment.status', [String(o.status)]);
        break;
      case 'Linkage':
        // what a merge says: which record (by type and identifier) replaces which
        add(
          'Linkage.item',
          ((o.item as { type?: string; resource?: { type?: string; identifier?: { value?: string } } }[] | undefined) ?? []).map((i) =>
            `${i.type ?? ''} ${i.resource?.type ?? ''} ${identifiers([i.resource?.identifier ?? {}])[0] ?? ''}`.trim(),
          ),
        );
        break;
      case 'Coverage':
        add('Coverage.subscriberId', o.subscriberId ? [String(o.subscriberId).trim()] : []);
        break;
    }
  }
  const links = references(resources);
  add(
    'references',
    links.filter((l) => !NOT_MAPPED_BY_REFERENCE.includes(l)),
  );
  add(
    'not compared: references',
    links.filter((l) => NOT_MAPPED_BY_REFERENCE.includes(l)),
  );
  return facts;
}

/** What one side has that the other lacks (multisets): `missing` from ours, `extra` in ours. */
export function difference(f: Pick<FactResult, 'expected' | 'actual'>): { missing: string[]; extra: string[] } {
  const left = new Map<string, number>();
  for (const x of f.expected) left.set(x, (left.get(x) ?? 0) + 1);
  const extra: string[] = [];
  for (const x of f.actual) {
    const n = left.get(x) ?? 0;
    if (n > 0) left.set(x, n - 1);
    else extra.push(x);
  }
  const missing = [...left].flatMap(([x, n]) => Array<string>(n).fill(x));
  return { missing, extra };
}

/** One line per fact that disagrees: `Patient.name: missing [DOE|JANE] extra [DOE|J]` (counts: expected → ours). */
export function misses(c: Comparison): string[] {
  return c.facts
    .filter((f) => f.agree < f.total)
    .map((f) => {
      if (f.fact.startsWith('count ')) return `${f.fact}: ${f.expected[0] ?? 0} → ${f.actual[0] ?? 0}`;
      const { missing, extra } = difference(f);
      return `${f.fact}:${missing.length ? ` missing [${missing.join(' ; ')}]` : ''}${extra.length ? ` extra [${extra.join(' ; ')}]` : ''}`;
    });
}

function multisetAgreement(a: string[], b: string[]): { agree: number; total: number } {
  const left = new Map<string, number>();
  for (const x of a) left.set(x, (left.get(x) ?? 0) + 1);
  let agree = 0;
  for (const x of b) {
    const n = left.get(x) ?? 0;
    if (n > 0) {
      agree++;
      left.set(x, n - 1);
    }
  }
  return { agree, total: a.length + b.length - agree };
}

/** Compares `actual` (ours) against `expected`. */
export function compareBundles(expected: Bundle, actual: Bundle): Comparison {
  const e = factsOf(expected);
  const a = factsOf(actual);
  const facts: FactResult[] = [];
  const notComparedLinks: Record<string, number> = {};
  for (const l of a.get('not compared: references') ?? []) notComparedLinks[l] = (notComparedLinks[l] ?? 0) + 1;
  for (const fact of new Set([...e.keys(), ...a.keys()])) {
    if (fact === 'not compared: references') continue;
    const ev = e.get(fact) ?? [];
    const av = a.get(fact) ?? [];
    if (!ev.length && !av.length) continue;
    if (fact.startsWith('count ')) {
      facts.push({ fact, expected: ev, actual: av, agree: ev[0] === av[0] ? 1 : 0, total: 1 });
      continue;
    }
    facts.push({ fact, expected: ev, actual: av, ...multisetAgreement(ev, av) });
  }
  const agree = facts.reduce((n, f) => n + f.agree, 0);
  const total = facts.reduce((n, f) => n + f.total, 0);
  const notCompared: Record<string, number> = {};
  for (const en of expected.entry ?? []) {
    const t = en.resource?.resourceType;
    if (t && !KEY.has(t)) notCompared[t] = (notCompared[t] ?? 0) + 1;
  }
  return { facts, agree, total, ratio: total ? agree / total : 1, notCompared, notComparedLinks };
}
