import model from 'fhirpath/fhir-context/r4';
import { fhirPath } from '@/clinical/fhir/fhirpath';
import { type Element, type ElementIndex, typesOf } from './fhir-elements';

/**
 * What a rule does to the elements its FHIRPath selects:
 * - `redact` removes them;
 * - `hash` replaces each string with its keyed pseudonym (a `reference` or `fullUrl` keeps its shape:
 *   `Patient/<pseudonym>`, `urn:uuid:<pseudonym>`, `Practitioner?identifier=<system>|<pseudonym>`);
 * - `date-shift` moves every date, dateTime and instant inside by the patient's shift;
 * - `birth-date` applies the birth-date policy (year only, or shifted; people over 89 get the 90-year boundary
 *   year, or lose it);
 * - `zip3` cuts US ZIP codes to 3 digits (`000` for the small areas), removes other postal codes;
 * - `region` keeps a state or country that reads as one (letters, spaces, dots, hyphens), removes anything else
 *   (a ZIP code or a street a sender put there);
 * - `scrub` replaces what identifies in free text (names and identifiers known from the record, phones,
 *   emails, SSNs, MRNs, URLs; dates moved by the shift); an Attachment's `data` is decoded when it is text,
 *   scrubbed and encoded again, and removed when it is binary (images, PDFs cannot be scrubbed);
 * - `keep` leaves them as they are (a user rule before the defaults, to exempt an element).
 * Rules apply in order and the first rule that reaches a field decides it: later rules leave it alone.
 */
export type FhirAction = 'redact' | 'hash' | 'date-shift' | 'birth-date' | 'zip3' | 'region' | 'scrub' | 'keep';

export interface FhirRule {
  /** FHIRPath from the resource (each resource of a Bundle on its own): `Patient.birthDate`, `descendants().ofType(HumanName)` */
  path: string;
  action: FhirAction;
}

/**
 * The Safe Harbor defaults for FHIR R4, by the 18 identifiers of 45 CFR 164.514(b)(2): names (A), geography
 * smaller than a state (B, ZIP to 3 digits), dates (C: shifted, birth dates to the year), phones and faxes (D, E),
 * emails (F), SSNs, MRNs, plan, account, license numbers and every other identifier (G–K, R: keyed hash), device
 * identifiers and serial numbers (M), URLs (N), free text (notes, narratives, text attachments scrubbed) and
 * photos (Q: binary attachments removed). Vehicle ids (L), IP addresses (O) and biometrics (P) are caught where
 * FHIR carries them, as identifiers or free text.
 */
export const SAFE_HARBOR_RULES: readonly FhirRule[] = [
  // A: names, wherever a HumanName is, and the names FHIR keeps as text
  { path: 'descendants().ofType(HumanName)', action: 'redact' },
  { path: "descendants().where(url = 'http://hl7.org/fhir/StructureDefinition/patient-mothersMaidenName')", action: 'redact' },
  { path: 'Organization.name', action: 'redact' },
  { path: 'Organization.alias', action: 'redact' },
  { path: 'Location.name', action: 'redact' },
  { path: 'Location.alias', action: 'redact' },
  // a reference's display names the person or place it points to: scrubbed, so those names become [NAME]
  { path: 'descendants().ofType(Reference).display', action: 'scrub' },
  // B: geography smaller than a state
  { path: 'descendants().ofType(Address).line', action: 'redact' },
  { path: 'descendants().ofType(Address).city', action: 'redact' },
  { path: 'descendants().ofType(Address).district', action: 'redact' },
  { path: 'descendants().ofType(Address).text', action: 'redact' },
  { path: 'descendants().ofType(Address).postalCode', action: 'zip3' },
  { path: 'descendants().ofType(Address).state', action: 'region' },
  { path: 'descendants().ofType(Address).country', action: 'region' },
  { path: "descendants().where(url = 'http://hl7.org/fhir/StructureDefinition/geolocation')", action: 'redact' },
  { path: 'Location.position', action: 'redact' },
  // D, E, F, N: phones, faxes, emails, URLs
  { path: 'descendants().ofType(ContactPoint)', action: 'redact' },
  // G–K, M, R: identifiers, resource ids and references (hashed so records still link)
  { path: 'descendants().ofType(Identifier).value', action: 'hash' },
  { path: 'id', action: 'hash' },
  { path: 'descendants().ofType(Reference).reference', action: 'hash' },
  { path: 'Device.udiCarrier', action: 'redact' },
  { path: 'Device.distinctIdentifier', action: 'hash' },
  { path: 'Device.serialNumber', action: 'hash' },
  { path: 'Device.lotNumber', action: 'hash' },
  // G–K, R by construction: a resource that describes a person holds its numbers and names as plain strings too
  // (Coverage.subscriberId — the member number —, dependent, class.value, Account.name…): every string and
  // markdown of its own (its fields and backbone elements, by the R4 model) is hashed, whatever the model adds
  { path: 'Patient', action: 'hash' },
  { path: 'RelatedPerson', action: 'hash' },
  { path: 'Person', action: 'hash' },
  { path: 'Coverage', action: 'hash' },
  { path: 'Account', action: 'hash' },
  // and the numbers other resources keep as strings: prior authorizations, an agent's alternative id
  { path: 'Claim.insurance.preAuthRef', action: 'hash' },
  { path: 'ClaimResponse.preAuthRef', action: 'hash' },
  { path: 'ExplanationOfBenefit.preAuthRef', action: 'hash' },
  { path: 'ExplanationOfBenefit.insurance.preAuthRef', action: 'hash' },
  { path: 'AuditEvent.agent.altId', action: 'hash' },
  // lot numbers, as HL7 v2's RXA-15 and Device.lotNumber are: hashed, so they still group
  { path: 'Immunization.lotNumber', action: 'hash' },
  { path: 'Medication.batch.lotNumber', action: 'hash' },
  // C: dates
  { path: 'Patient.birthDate', action: 'birth-date' },
  { path: 'RelatedPerson.birthDate', action: 'birth-date' },
  { path: 'Person.birthDate', action: 'birth-date' },
  { path: 'Practitioner.birthDate', action: 'birth-date' },
  { path: '$this', action: 'date-shift' },
  // free text and attachments (Q: photos and other binary data cannot be scrubbed: removed)
  { path: 'descendants().ofType(Attachment).url', action: 'redact' },
  { path: 'descendants().ofType(Attachment).data', action: 'scrub' },
  { path: 'Binary.data', action: 'scrub' },
  { path: 'descendants().ofType(Narrative).`div`', action: 'scrub' },
  { path: 'descendants().ofType(Annotation).text', action: 'scrub' },
  { path: '$this', action: 'scrub' },
];

/** A place a rule reaches: `obj[key]` (all of it when `index` is undefined, else that element of the array). */
export interface Target {
  obj: Record<string, unknown>;
  key: string;
  index?: number;
}

interface Located {
  /** Where each result lives, from fhirpath.js's hidden `__path__` (objects) */
  fromResults: boolean;
  /** For a path ending in a field name: the expression of the elements holding it, and the field */
  parent?: string;
  field?: string;
}

const located = new Map<string, Located>();

/** Splits `a.b.where(x).c` into `a.b.where(x)` and `c` at the last top-level dot (outside quotes and brackets). */
function splitLastField(path: string): { parent: string; field: string } | undefined {
  let depth = 0;
  let quote = '';
  let lastDot = -1;
  for (let i = 0; i < path.length; i++) {
    const c = path[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === "'" || c === '`' || c === '"') quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === '.' && depth === 0) lastDot = i;
  }
  let field = path.slice(lastDot + 1).trim();
  if (/^`[A-Za-z_][A-Za-z0-9_]*`$/.test(field)) field = field.slice(1, -1); // `div` is a FHIRPath keyword
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(field) || /^[A-Z]/.test(field)) return undefined;
  return { parent: lastDot < 0 ? '$this' : path.slice(0, lastDot).trim(), field };
}

/** Checks a rule's path once (it must parse, and select elements or end in a field name); the reason when it does not. */
export function ruleProblem(path: string): string | undefined {
  try {
    locate(path);
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

function locate(path: string): Located {
  let l = located.get(path);
  if (l) return l;
  fhirPath(path); // throws FhirPathError when it does not parse
  const split = splitLastField(path);
  l = split ? { fromResults: false, parent: split.parent, field: split.field } : { fromResults: true };
  if (split) fhirPath(split.parent);
  located.set(path, l);
  return l;
}

interface PathInfo {
  parentResNode?: { data?: unknown } | null;
  propName?: string | null;
  index?: number | null;
}

const fieldsOfType = new Map<string, Set<string> | null>();

function isA(type: string, target: string): boolean {
  for (let t: string | undefined = type; t; t = model.type2Parent[t]) if (t === target) return true;
  return false;
}

/** The JSON field names that can hold a `type` (`HumanName`: name, valueHumanName, patientName…); null when unknown. */
function fieldsHolding(type: string): Set<string> | null {
  if (fieldsOfType.has(type)) return fieldsOfType.get(type)!;
  const names = new Set<string>();
  for (const [p, t] of Object.entries(model.path2Type)) if (isA(t, type)) names.add(p.slice(p.lastIndexOf('.') + 1));
  const out = names.size ? names : null;
  fieldsOfType.set(type, out);
  return out;
}

/** Every field name used anywhere in a resource: what `mayReach` checks a rule against before running its FHIRPath. */
export function fieldNames(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) fieldNames(v, into);
  else if (value && typeof value === 'object') {
    for (const k in value) {
      into.add(k);
      const v = (value as Record<string, unknown>)[k];
      if (v && typeof v === 'object') fieldNames(v, into);
    }
  }
  return into;
}

/** The R4 resource types (names that start a rule's path at the resource) */
export const RESOURCE_TYPES: ReadonlySet<string> = new Set(
  Object.keys(model.path2Type)
    .filter((p) => !p.includes('.') || /^[A-Z]\w+\.id$/.test(p))
    .map((p) => p.split('.')[0]!),
);

/**
 * Whether `path` can select anything in a resource of this type with these field names: a path that starts with
 * another resource type cannot, nor a `descendants().ofType(T)` when no field that holds a T is there. Saves
 * running most rules' FHIRPath (descendants() is the costly part) on resources they cannot concern.
 */
export function mayReach(path: string, resourceType: unknown, fields: Set<string>): boolean {
  const need = needs(path);
  if (need.resourceType && need.resourceType !== resourceType) return false;
  if (need.url && !fields.has('url')) return false;
  if (need.ofType && !holds(fields, need.ofType)) return false;
  return true;
}

/** Whether two sets have a name in common (looking the smaller one's names up in the other). */
function shareOne(a: Set<string>, b: Set<string>): boolean {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const x of small) if (large.has(x)) return true;
  return false;
}

// per set of field names (one resource's), whether a field that holds a type is among them
const holding = new WeakMap<Set<string>, Map<string, boolean>>();

function holds(fields: Set<string>, type: string): boolean {
  let known = holding.get(fields);
  if (!known) holding.set(fields, (known = new Map()));
  let yes = known.get(type);
  if (yes === undefined) {
    const holders = fieldsHolding(type);
    yes = !holders || shareOne(holders, fields);
    known.set(type, yes);
  }
  return yes;
}

/** What `mayReach` checks for a path, worked out once per path. */
interface Needs {
  resourceType?: string;
  url: boolean;
  /** a type one of the resource's fields must be able to hold (`descendants().ofType(T)`) */
  ofType?: string;
}
const needed = new Map<string, Needs>();

function needs(path: string): Needs {
  let need = needed.get(path);
  if (need) return need;
  const head = /^([A-Z][A-Za-z]+)(?:\.|$)/.exec(path)?.[1];
  const ofType = /^descendants\(\)\.ofType\(([A-Z][A-Za-z]+)\)/.exec(path)?.[1];
  need = {
    ...(head && head !== 'Resource' && head !== 'DomainResource' && RESOURCE_TYPES.has(head) ? { resourceType: head } : {}),
    url: path.startsWith('descendants().where(url'),
    ...(ofType ? { ofType } : {}),
  };
  needed.set(path, need);
  return need;
}

/** The preset's shapes of path, answered from an ElementIndex without fhirpath.js. */
type Shape = { resource: true } | { ofType: string } | { url: string };
const shapes = new Map<string, Shape | null>();

function shapeOf(path: string): Shape | null {
  let shape = shapes.get(path);
  if (shape !== undefined) return shape;
  let ofType = /^descendants\(\)\.ofType\(([A-Z][A-Za-z]*)\)$/.exec(path)?.[1];
  if (ofType && !typesOf(ofType)) ofType = undefined; // not a complex type of the model: fhirpath.js answers
  const url = /^descendants\(\)\.where\(url = '([^'\\]*)'\)$/.exec(path)?.[1];
  shape = path === '$this' || RESOURCE_TYPES.has(path) ? { resource: true } : ofType ? { ofType } : url !== undefined ? { url } : null;
  shapes.set(path, shape);
  return shape;
}

/** What fhirpath.js's `path` gives on `resource`, from the index; undefined when it is not a shape the index knows. */
function indexed(path: string, resource: Record<string, unknown>, index: ElementIndex | undefined): Element[] | 'resource' | undefined {
  const shape = index && shapeOf(path);
  if (!shape) return undefined;
  // `Patient` on a Patient is the resource; on anything else fhirpath.js decides
  if ('resource' in shape) return path === '$this' || path === resource.resourceType ? 'resource' : undefined;
  return 'ofType' in shape ? index.ofType(shape.ofType) : index.withUrl(shape.url);
}

/**
 * Where `path` reaches in `resource`. A path ending in a field name reaches that field of each element before
 * it (a choice field such as `deceased` reaches `deceasedDateTime`); other paths reach the elements they select.
 * The resource itself (`$this`) comes back with an empty key. Primitive results of other paths (`(a | b)`,
 * `descendants().ofType(string)`) cannot be placed and are refused by `ruleProblem`'s caller at run time.
 * With `index` (the resource's elements, as they were when no rule had removed any), the preset's shapes of path
 * are answered from it: the same places fhirpath.js finds, plus ones inside what rules removed since, where
 * changes no longer reach the output.
 */
export function targets(path: string, resource: Record<string, unknown>, fields?: Set<string>, index?: ElementIndex): Target[] {
  const l = locate(path);
  // no element of the type in the resource: nothing to reach (mayReach would only add that a field is missing)
  const shape = index && shapeOf(l.fromResults ? path : l.parent!);
  if (shape && 'ofType' in shape && index!.ofType(shape.ofType).length === 0) return [];
  if (fields && !mayReach(path, resource.resourceType, fields)) return [];
  const out: Target[] = [];
  if (l.fromResults) {
    const found = indexed(path, resource, index);
    if (found === 'resource') return [{ obj: resource, key: '' }];
    if (found) {
      for (const e of found) {
        if (e.data == null) continue;
        if (typeof e.data !== 'object') throw cannotPlace(path);
        const parent = e.parent?.data;
        if (parent && typeof parent === 'object' && e.prop)
          out.push({ obj: parent as Record<string, unknown>, key: e.prop, ...(typeof e.index === 'number' ? { index: e.index } : {}) });
      }
      return out;
    }
    for (const r of fhirPath(path)(resource)) {
      if (r === resource) out.push({ obj: resource, key: '' });
      else if (r && typeof r === 'object') {
        const p = (r as { __path__?: PathInfo }).__path__;
        const parent = p?.parentResNode?.data;
        if (parent && typeof parent === 'object' && p?.propName)
          out.push({ obj: parent as Record<string, unknown>, key: p.propName, ...(typeof p.index === 'number' ? { index: p.index } : {}) });
      } else throw cannotPlace(path);
    }
    return out;
  }
  const found = indexed(l.parent!, resource, index);
  const holders = found === 'resource' ? [resource] : found ? found.map((e) => e.data) : fhirPath(l.parent!)(resource);
  for (const holder of holders) {
    if (!holder || typeof holder !== 'object' || Array.isArray(holder)) continue;
    const obj = holder as Record<string, unknown>;
    if (l.field! in obj) out.push({ obj, key: l.field! });
    else
      for (const k of Object.keys(obj))
        if (k.length > l.field!.length && k.startsWith(l.field!) && /^[A-Z]/.test(k[l.field!.length]!)) out.push({ obj, key: k });
  }
  return out;
}

function cannotPlace(path: string): Error {
  return new Error(`rule "${path}" selects values it cannot place: end it with a field name (e.g. ".value")`);
}
