import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fhirPath } from '@/clinical/fhir/fhirpath';
import { parseMessage } from '@/clinical/hl7v2';
import { convertMessage } from '@/clinical/hl7v2-fhir';
import { childElements, type Element } from '@/clinical/deid/fhir-elements';

type Json = Record<string, unknown>;

/** The Synthea sample (/work/shared/data/synthea-10): every resource of every ndjson file. */
export function syntheaResources(root = process.env.BENCH_ROOT ?? process.cwd()): Json[] {
  const dir = path.resolve(root, '../shared/data/synthea-10');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ndjson'))
    .sort()
    .flatMap((f) =>
      readFileSync(path.join(dir, f), 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as Json),
    );
}

/**
 * The sample as a system would send it: one collection Bundle per patient (the Patient and every resource whose
 * subject or patient is that Patient), and the resources about no patient (organizations, practitioners…) alone.
 */
export function syntheaRecords(resources = syntheaResources()): Json[] {
  const byPatient = new Map<string, Json[]>();
  const alone: Json[] = [];
  for (const r of resources) {
    const ref = ((r.subject ?? r.patient) as Json | undefined)?.reference;
    const id = r.resourceType === 'Patient' ? (r.id as string) : typeof ref === 'string' && ref.startsWith('Patient/') ? ref.slice(8) : undefined;
    if (id === undefined) alone.push(r);
    else byPatient.set(id, [...(byPatient.get(id) ?? []), r]);
  }
  const bundles = [...byPatient.values()].map((rs) => ({
    resourceType: 'Bundle',
    type: 'collection',
    entry: rs.map((resource) => ({ fullUrl: `urn:uuid:${resource.id as string}`, resource })),
  }));
  return [...bundles, ...alone];
}

/** The ADT sample messages (../shared/data/hl7v2/messages/ADT*) as the hl7v2-to-fhir node makes them: transaction Bundles. */
export function adtBundles(root = process.env.BENCH_ROOT ?? process.cwd()): Json[] {
  const dir = path.resolve(root, '../shared/data/hl7v2/messages');
  return readdirSync(dir)
    .filter((f) => f.startsWith('ADT') && f.endsWith('.hl7'))
    .sort()
    .map((f) => convertMessage(parseMessage(readFileSync(path.join(dir, f), 'utf8')), { bundleType: 'transaction' }).bundle as unknown as Json);
}

const PHI = {
  name: 'descendants().ofType(HumanName).select(family | given | text)',
  maidenName: "descendants().where(url = 'http://hl7.org/fhir/StructureDefinition/patient-mothersMaidenName').value",
  identifier: 'descendants().ofType(Identifier).value',
  address: 'descendants().ofType(Address).select(line | city)',
  telecom: 'descendants().ofType(ContactPoint).value',
  birthDate: 'descendants().select(birthDate)',
};

/** Every name, identifier value, resource id, address line and city, phone, email and birth date of the input. */
export function phiValues(input: unknown): Map<string, keyof typeof PHI | 'id' | 'placeName'> {
  const out = new Map<string, keyof typeof PHI | 'id' | 'placeName'>();
  const visit = (r: Json): void => {
    if (r.resourceType === 'Bundle') {
      for (const e of (r.entry as Json[] | undefined) ?? []) visit(e.resource as Json);
      return;
    }
    for (const [kind, expr] of Object.entries(PHI)) for (const v of fhirPath(expr)(r)) if (typeof v === 'string') out.set(v, kind as keyof typeof PHI);
    if (typeof r.id === 'string') out.set(r.id, 'id');
    if ((r.resourceType === 'Organization' || r.resourceType === 'Location') && typeof r.name === 'string') out.set(r.name, 'placeName');
  };
  visit(input as Json);
  return out;
}

/** The output as a reader sees it: its JSON, plus every base64 attachment decoded. */
export function readable(output: unknown): string {
  const json = JSON.stringify(output);
  const decoded = [...json.matchAll(/"data":"([A-Za-z0-9+/=]+)"/g)].map((m) => Buffer.from(m[1]!, 'base64').toString('utf8'));
  return [json, ...decoded].join('\n').toLowerCase();
}

/**
 * The leak scan (see leak-scan.test.ts): what a record carries that identifies a person, collected generically —
 * by FHIR data type in every resource, and every string of the resources that describe a person — and the check
 * that none of it is left anywhere in a de-identified output.
 */
export type PhiKind =
  'identifier' | 'name' | 'telecom' | 'address' | 'postalCode' | 'birthDate' | 'personString' | 'personDisplay' | 'placeName' | 'id' | 'date';

/** The resources that describe a person: every string they hold is the person's (an id, a name, a number). */
export const PERSON_RESOURCES = new Set(['Patient', 'RelatedPerson', 'Person', 'Coverage', 'Account']);

/**
 * Values allowed to stay, and why: US state codes and names and country codes (Safe Harbor keeps the state);
 * anything shorter than 4 characters (initials, "Jr", "MD", sex codes) or a bare number of up to 4 digits (a set
 * id, a year — Safe Harbor keeps years) would match ordinary words and numbers in any output.
 */
export function trivial(value: string): boolean {
  const v = value.trim();
  if (v.length < 4 || /^\d{1,4}$/.test(v) || NULL_WORDS.has(v.toLowerCase())) return true;
  // an OID names a system or an assigning authority, not a person
  if (/^[0-2](?:\.\d+){3,}$/.test(v)) return true;
  return US_STATES.has(v.toLowerCase()) || /^[A-Z]{2,3}$/.test(v);
}

const NULL_WORDS = new Set(['unknown', 'none', 'null', 'n/a', 'test']);
const US_STATES = new Set([
  'alabama',
  'alaska',
  'arizona',
  'arkansas',
  'california',
  'colorado',
  'connecticut',
  'delaware',
  'florida',
  'georgia',
  'hawaii',
  'idaho',
  'illinois',
  'indiana',
  'iowa',
  'kansas',
  'kentucky',
  'louisiana',
  'maine',
  'maryland',
  'massachusetts',
  'michigan',
  'minnesota',
  'mississippi',
  'missouri',
  'montana',
  'nebraska',
  'nevada',
  'new hampshire',
  'new jersey',
  'new mexico',
  'new york',
  'north carolina',
  'north dakota',
  'ohio',
  'oklahoma',
  'oregon',
  'pennsylvania',
  'rhode island',
  'south carolina',
  'south dakota',
  'tennessee',
  'texas',
  'utah',
  'vermont',
  'virginia',
  'washington',
  'west virginia',
  'wisconsin',
  'wyoming',
  'district of columbia',
  'puerto rico',
  'united states',
  'usa',
]);

const PERSON_REF = /(?:^|\/)(?:Patient|RelatedPerson|Person|Practitioner)\//;
const DATE_TYPES = new Set(['date', 'dateTime', 'instant']);

/** Every value of a FHIR resource or Bundle with the R4 type the model gives it, and the resource it is in. */
export function typedValues(
  input: unknown,
  visit: (v: { value: unknown; type: string | null; prop: string; parentType: string | null; resourceType: string; element: Element }) => void,
): void {
  const r = input as Json;
  if (r?.resourceType === 'Bundle') {
    for (const e of (r.entry as Json[] | undefined) ?? []) if (e?.resource) typedValues(e.resource, visit);
  }
  if (typeof r?.resourceType !== 'string') return;
  const resourceType = r.resourceType;
  const walk = (node: Element): void => {
    const data = node.data;
    if (!data || typeof data !== 'object') return;
    for (const prop of Object.keys(data)) {
      if (prop === 'resourceType' || prop.startsWith('_')) continue;
      const child = (data as Json)[prop];
      if (child && typeof child === 'object' && !Array.isArray(child) && typeof (child as Json).resourceType === 'string') {
        if (prop !== 'resource') typedValues(child, visit); // contained resources (a Bundle's entries are walked above)
        continue;
      }
      for (const c of childElements(node, prop)) {
        if (Array.isArray(c.data) || (c.data && typeof c.data === 'object' && typeof (c.data as Json).resourceType === 'string')) continue;
        visit({ value: c.data, type: c.type, prop, parentType: node.type, resourceType, element: c });
        if (c.data && typeof c.data === 'object') walk(c);
      }
    }
  };
  if (r.resourceType === 'Bundle') {
    for (const k of ['id', 'timestamp'])
      if (typeof r[k] === 'string')
        visit({ value: r[k], type: k === 'id' ? 'id' : 'instant', prop: k, parentType: 'Bundle', resourceType: 'Bundle', element: null as unknown as Element });
    return;
  }
  walk({ data: r, extra: null, path: resourceType, type: resourceType, parent: null, prop: null, index: null });
}

/**
 * What identifies a person in a FHIR input, by data type: Identifier values, HumanName parts, ContactPoint values,
 * Address lines, cities, districts, texts and 5-digit ZIP codes, the display of references to people, birth dates
 * (the full date: the preset keeps the year), resource ids, Organization and Location names, and every string of
 * the resources that describe a person. Trivial values (see `trivial`) are left out.
 */
export function fhirPhi(input: unknown): Map<string, PhiKind> {
  const out = new Map<string, PhiKind>();
  const add = (v: unknown, kind: PhiKind) => {
    if (typeof v === 'string' && !trivial(v) && !out.has(v.trim())) out.set(v.trim(), kind);
  };
  typedValues(input, ({ value, type, prop, parentType, resourceType, element }) => {
    if (typeof value !== 'string') return;
    if (parentType === 'Identifier' && prop === 'value') add(value, 'identifier');
    else if (parentType === 'HumanName' && ['family', 'given', 'text'].includes(prop)) add(value, 'name');
    else if (parentType === 'ContactPoint' && prop === 'value') add(value, 'telecom');
    else if (parentType === 'Address' && ['line', 'city', 'district', 'text'].includes(prop)) add(value, 'address');
    else if (parentType === 'Address' && prop === 'postalCode' && value.replace(/\D/g, '').length > 3) add(value, 'postalCode');
    else if (parentType === 'Reference' && prop === 'display') {
      const ref = (element.parent?.data as Json | undefined)?.reference;
      if (typeof ref === 'string' && PERSON_REF.test(ref)) add(value, 'personDisplay');
    } else if (prop === 'birthDate' && /^\d{4}-\d{2}-\d{2}/.test(value)) add(value, 'birthDate');
    else if (prop === 'id' && parentType === resourceType) add(value, 'id');
    else if ((resourceType === 'Organization' || resourceType === 'Location') && parentType === resourceType && (prop === 'name' || prop === 'alias'))
      add(value, 'placeName');
    else if (PERSON_RESOURCES.has(resourceType) && (type === 'string' || type === 'markdown') && !inCodedOrExtension(element)) add(value, 'personString');
  });
  return out;
}

/**
 * Strings of a person's resource that are not the person's: a coding's display and a concept's text (they name the
 * code: "Medical record number", "Married"), a quantity's unit; and extension values, which the de-identifier
 * scrubs as free text (it cannot know what an extension it has never seen holds, nor can this scan).
 */
function inCodedOrExtension(e: Element): boolean {
  for (let p = e.parent; p; p = p.parent)
    if (/^(Coding|CodeableConcept|Quantity|Money|Extension|Age|Duration|Count|Distance|SimpleQuantity)$/.test(p.type ?? p.path ?? '')) return true;
  return false;
}

/**
 * The dates, dateTimes and instants (to the day) of a FHIR input left as they were in the output, at the same
 * place: the preset shifts them all. By place, not anywhere: one date shifted can be another date of the record
 * (a Synthea condition's abatement moved onto another resource's authoredOn).
 */
export function datesKept(input: unknown, output: unknown): string[] {
  const dates = new Set<string>();
  typedValues(input, ({ value, type }) => {
    if (typeof value === 'string' && type !== null && DATE_TYPES.has(type) && /^\d{4}-\d{2}-\d{2}/.test(value)) dates.add(value);
  });
  const before = strings(input);
  return [...strings(output)].filter(([at, v]) => dates.has(v) && before.get(at) === v).map(([at, v]) => `date: ${v} at ${at}`);
}

/** Every string of a JSON value by its place (`.entry[3].resource.birthDate`). */
function strings(v: unknown, at = '', out = new Map<string, string>()): Map<string, string> {
  if (typeof v === 'string') out.set(at, v);
  else if (Array.isArray(v)) v.forEach((x, i) => strings(x, `${at}[${i}]`, out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) strings(x, `${at}.${k}`, out);
  return out;
}

/**
 * A FHIR output as the scan searches it: `readable`, without the codings' code, display and system and without
 * `system` uris — vocabulary, kept as it is by design, where a sample's "Autopsy" (a family name in PDA-9) is
 * also the display of the code `autopsy`.
 */
export function searchable(output: unknown): string {
  const strip = (v: unknown, inCoding: boolean): unknown => {
    if (Array.isArray(v)) return v.map((x) => strip(x, inCoding));
    if (!v || typeof v !== 'object') return v;
    const out: Json = {};
    for (const [k, x] of Object.entries(v as Json)) {
      if (k === 'system' || (inCoding && (k === 'code' || k === 'display'))) continue;
      out[k] = strip(x, k === 'coding' || k === 'valueCoding');
    }
    return out;
  };
  return readable(strip(output, false));
}

/** Whether `value` appears in `text` (lowercased) as a whole value: "MARY" inside "Primary" is not that value. */
export function appears(text: string, value: string): boolean {
  const v = value.trim().toLowerCase();
  let at = text.indexOf(v);
  while (at >= 0) {
    const before = text.charCodeAt(at - 1);
    const after = text.charCodeAt(at + v.length);
    if (!isAlnum(before) && !isAlnum(after)) return true;
    at = text.indexOf(v, at + 1);
  }
  return false;
}

const isAlnum = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** Every leaked value: each of `values` that appears as a whole value in `text`. */
export function leaksIn(text: string, values: Map<string, PhiKind>): string[] {
  const hay = text.toLowerCase();
  return [...values].filter(([v]) => appears(hay, v)).map(([v, kind]) => `${kind}: ${v}`);
}
