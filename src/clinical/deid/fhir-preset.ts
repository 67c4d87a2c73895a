import { childElements, type Element, step } from './fhir-elements';
import { type FieldPlan, type Place, rootPlace } from './fhir-preset-places';
import {
  type ActionContext,
  bundleShell,
  changeValue,
  emptyExtension,
  type Identities,
  keepContactsValid,
  keepOrganizationValid,
  REMOVED,
} from './fhir-actions';
import { addOwnNames, addReferenceDisplay, medicalRecordNumber, PATIENT_FIELDS, patientId } from './fhir-people';
import { SAFE_HARBOR_RULES } from './fhir-rules';
import { type PresetTable, presetTable } from './fhir-preset-table';
import { type BirthDatePolicy, shiftDays, shiftFhirDate } from './keyed';
import { KnownIdentifiers, Scrubber } from './scrub';
import type { FhirDeidOptions } from './fhir';
import { jsonCopy } from './json-copy';

/**
 * The Safe Harbor preset without user rules (a feed's configuration), compiled: per resource, one walk that
 * collects what identifies (for free text) and checks the input is plain, well-typed FHIR, then one walk that
 * gives each value what the first rule reaching it does (fhir-preset-table.ts) and drops what is left empty —
 * what the rules interpreted one after the other give (fhir.ts), without an element index or FHIRPath per
 * message. Anything the compiled form does not cover (a `_field`, a null, a value of another kind than its type,
 * a choice field by its bare name…) answers undefined before any change: the rules are interpreted then.
 */

type Json = Record<string, unknown>;
const BAIL = Symbol('interpret');

/**
 * De-identifies `input` by the compiled preset into a new value (the input is left as it was), or undefined when
 * the rules must be interpreted. The output is built as the walk goes: what a JSON copy would make of the input
 * (properties left undefined dropped), not a copy changed afterwards; anything else a JSON copy changes (a number
 * that is not finite, a class instance, toJSON, very deep nesting) is left to the interpreted rules.
 */
export function deidentifyByPreset(input: unknown, options: FhirDeidOptions, key: Uint8Array): { value: unknown; resources: number } | undefined {
  const table = presetTable(SAFE_HARBOR_RULES);
  if (!table || !plainObject(input)) return undefined;
  const known = new KnownIdentifiers();
  const identities: Identities = new Map();
  const resources: Json[] = [];
  const patientRefs: (string | undefined)[] = [];
  try {
    resourcesOf(input, resources);
    for (const r of resources) {
      if (typeof r.resourceType !== 'string' || !r.resourceType) return undefined;
      patientRefs.push(collect(r, table, known));
      if (r.resourceType === 'Patient' && typeof r.id === 'string') {
        const mrn = options.patientIdentity === 'id' ? undefined : medicalRecordNumber(r);
        identities.set(r.id, { identity: mrn ?? r.id, ...(typeof r.deceasedDateTime === 'string' ? { deceased: r.deceasedDateTime } : {}) });
      }
    }
  } catch (e) {
    if (e === BAIL) return undefined;
    throw e;
  }
  const policy: BirthDatePolicy = { keepYear: options.birthDate?.keepYear ?? true, over89: options.birthDate?.over89 ?? 'boundary' };
  const maxDays = options.maxShiftDays ?? 365;
  const scrubbers = new Map<number, Scrubber>();
  const outputs = resources.map((r, i) => {
    const id = r.resourceType === 'Patient' && typeof r.id === 'string' ? r.id : patientRefs[i];
    const patient = id === undefined ? { identity: '' } : (identities.get(id) ?? { identity: id });
    const days = shiftDays(key, patient.identity, maxDays);
    let scrubber = scrubbers.get(days);
    if (!scrubber) scrubbers.set(days, (scrubber = new Scrubber(known, { shiftIso: (iso) => shiftFhirDate(iso, days) })));
    const birthAt = patient.deceased ? new Date(patient.deceased) : (options.now ?? new Date());
    const rt = r.resourceType as string;
    const out = new Apply(table, { key, policy, days, scrubber, birthAt }).object(r, rootPlace(table, rt));
    if (rt === 'Organization' && r.name !== undefined) keepOrganizationValid(out);
    if (rt === 'Patient') keepContactsValid(out);
    return out;
  });
  if (input.resourceType !== 'Bundle') return { value: outputs[0], resources: 1 };
  let value: Json;
  try {
    value = bundleCopy(input, outputs.values());
  } catch {
    return undefined; // a shell a JSON copy refuses (a cycle, a BigInt): the interpreted path says how
  }
  bundleShell(value, key, new Set([...identities.values()].map((p) => p.identity)), maxDays);
  return { value, resources: resources.length };
}

const plainObject = (v: unknown): v is Json => {
  if (v === null || typeof v !== 'object' || 'toJSON' in v) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/** A Bundle's resources (nested Bundles' entries) in order, as the interpreted path finds them in its copy. */
function resourcesOf(input: Json, out: Json[]): void {
  if (input.resourceType !== 'Bundle') return void out.push(input);
  const entries = input.entry;
  if (entries === undefined) return;
  if (!Array.isArray(entries) || Object.getPrototypeOf(entries) !== Array.prototype) throw BAIL;
  for (const e of entries) {
    if (!plainObject(e) || (e.resource !== undefined && !plainObject(e.resource))) throw BAIL;
    if (e.resource) resourcesOf(e.resource as Json, out);
  }
}

/** What a JSON copy keeps of a property (it leaves out undefined, functions and symbols) */
const kept = (v: unknown) => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';

/** A JSON copy of a value (a string or boolean is its own) */
const copy = (v: unknown) => (typeof v === 'string' || typeof v === 'boolean' ? v : jsonCopy(v));

/** A JSON copy of a Bundle whose resources are `outputs`, in order (nested Bundles' shells copied alike). */
function bundleCopy(b: Json, outputs: Iterator<Json>): Json {
  const out: Json = {};
  for (const k of Object.keys(b)) {
    if (k !== 'entry') {
      if (kept(b[k])) out[k] = copy(b[k]);
      continue;
    }
    out.entry = (b.entry as Json[]).map((e) => {
      const entry: Json = {};
      for (const f of Object.keys(e))
        if (f !== 'resource') {
          if (kept(e[f])) entry[f] = copy(e[f]);
        } else if (e.resource !== undefined) {
          const r = e.resource as Json;
          entry.resource = r.resourceType === 'Bundle' ? bundleCopy(r, outputs) : outputs.next().value;
        }
      return entry;
    });
  }
  return out;
}

/** Lowercase (or System.) types hold primitives; null (outside the model) holds anything. */
const complex = (type: string | null) => type !== null && type.charCodeAt(0) >= 65 && type.charCodeAt(0) <= 90 && !type.startsWith('System.');
const primitive = (type: string | null) => type !== null && !complex(type);
/** A value a JSON copy keeps as it is: a string, a boolean, a finite number other than -0 */
const jsonPrimitive = (x: unknown) => typeof x === 'string' || typeof x === 'boolean' || (typeof x === 'number' && Number.isFinite(x) && !Object.is(x, -0));
/** Deeper than this, the interpreted path (whose JSON copy takes the JSON round trip there) decides */
const MAX_DEPTH = 1_000;
const MAIDEN = 'http://hl7.org/fhir/StructureDefinition/patient-mothersMaidenName';

/** What one resource says that identifies (added to `known` in the interpreted order of kinds); the Patient it is about. */
function collect(r: Json, table: PresetTable, known: KnownIdentifiers): string | undefined {
  const found = {
    names: [] as unknown[],
    ids: [] as unknown[],
    contacts: [] as Json[],
    addresses: [] as unknown[],
    refs: [] as Json[],
    maiden: [] as unknown[],
  };
  // what childElements gives of these fields, read directly where it comes to the same: the walk has refused any
  // `_field` (a primitive's extensions) of this object by the time the values are used, and none of them is a choice
  const values = (o: Json, path: string, type: string, fields: string[], into: unknown[]) => {
    let e: Element | undefined;
    for (const f of fields) {
      if (step(path, f).choices) {
        for (const c of childElements((e ??= { data: o, extra: null, path, type, parent: null, prop: null, index: null }), f))
          if (c.data != null) into.push(c.data);
        continue;
      }
      const v = o[f];
      if (Array.isArray(v)) {
        for (const x of v) if (x != null) into.push(x);
      } else if (v != null) into.push(v);
    }
  };
  const visit = (o: Json, place: Place, depth: number) => {
    if (depth > MAX_DEPTH) throw BAIL;
    if (depth > 0) {
      const { path, type } = place;
      if (type === 'HumanName') values(o, path, type, ['family', 'given', 'text'], found.names);
      else if (type === 'Identifier') values(o, path, type, ['value'], found.ids);
      else if (type === 'ContactPoint') found.contacts.push(o);
      else if (type === 'Address') values(o, path, type, ['line', 'city', 'district', 'text'], found.addresses);
      else if (type === 'Reference') found.refs.push(o);
      if (o.url !== undefined && typeof o.url !== 'string') throw BAIL;
      if (o.url === MAIDEN) values(o, path, type ?? '', ['value'], found.maiden);
    }
    for (const k in o) {
      const v = o[k];
      if (k === 'resourceType' || v === undefined) continue;
      if (k.charCodeAt(0) === 95) throw BAIL; // `_field`: a primitive's extensions (and `__proto__`)
      const plan = place.field(k);
      const s = plan.step;
      if (s.choices || (Array.isArray(v) && (Object.getPrototypeOf(v) !== Array.prototype || 'toJSON' in v))) throw BAIL;
      const rule = place.rule(plan, o, k);
      const many = Array.isArray(v);
      for (let i = 0, n = many ? v.length : 1; i < n; i++) {
        const x: unknown = many ? v[i] : v;
        if (x === null || x === undefined || Array.isArray(x)) throw BAIL;
        if (typeof x === 'object') {
          if (!plainObject(x) || primitive(s.type) || (rule && rule.action !== 'redact')) throw BAIL;
          const rt = (x as Json).resourceType;
          if (rt && typeof rt !== 'string') throw BAIL;
          visit(x as Json, place.child(plan, rt as string | undefined), depth + 1);
        } else if (complex(s.type) || !jsonPrimitive(x)) throw BAIL;
      }
    }
  };
  if (!plainObject(r)) throw BAIL;
  visit(r, rootPlace(table, r.resourceType as string), 0);
  checkContacts(found.contacts);
  for (const v of found.names) known.add('NAME', v);
  for (const v of found.ids) known.add('ID', v);
  for (const v of found.contacts) known.add(v.system === 'email' ? 'EMAIL' : 'PHONE', v.value);
  for (const v of found.addresses) known.add('ADDRESS', v);
  for (const ref of found.refs) addReferenceDisplay(known, ref);
  for (const v of found.maiden) known.add('NAME', v);
  addOwnNames(known, r, (person) => ownStringValues(person, rootPlace(table, person.resourceType as string)));
  return r.resourceType === 'Patient' && typeof r.id === 'string' ? undefined : patientOf(r, found.refs);
}

/**
 * What ownStrings (fhir-people.ts) finds in a resource the first walk has passed, read with the places' steps rather
 * than element objects: the strings and markdown of its fields and of its backbone elements, in its order.
 */
function ownStringValues(r: Json, root: Place): unknown[] {
  const out: unknown[] = [];
  const visit = (o: Json, place: Place) => {
    for (const k of Object.keys(o)) {
      const v = o[k];
      if (k === 'resourceType' || v === undefined) continue;
      const plan = place.field(k);
      const type = plan.step.type;
      const many = Array.isArray(v);
      for (let i = 0, n = many ? v.length : 1; i < n; i++) {
        const x: unknown = many ? v[i] : v;
        if (type === 'string' || type === 'markdown') {
          if (typeof x === 'string') out.push(x);
        } else if (type === 'BackboneElement' && x !== null && typeof x === 'object' && !(x as Json).resourceType)
          visit(x as Json, place.child(plan, undefined));
      }
    }
  };
  visit(r, root);
  return out;
}

/**
 * The interpreted rules add a resource's phones and emails in the order of its elements level by level, this walk
 * in another: the same terms unless one value is both a phone and an email (the first added names it). Then interpret.
 */
function checkContacts(contacts: Json[]): void {
  const emails = new Set<string>();
  const phones = new Set<string>();
  for (const c of contacts) {
    if (typeof c.value !== 'string') continue;
    const v = c.value.trim().replace(/\s+/g, ' ').toLowerCase();
    if (c.system === 'email') emails.add(v);
    else phones.add(v).add(v.replace(/\D/g, ''));
  }
  for (const e of emails) if (phones.has(e)) throw BAIL;
}

/**
 * The Patient id a resource names: in its subject (patient, beneficiary…), else its first reference (level by level)
 * to one. `refs`: its Reference elements, as the first walk found them (the same as the level-by-level walk below
 * meets, in another order): when they name one Patient or none, that is the answer, and the order does not matter.
 */
function patientOf(r: Json, refs: Json[]): string | undefined {
  for (const f of PATIENT_FIELDS) {
    const ref = (r[f] as Json | undefined)?.reference;
    const id = typeof ref === 'string' ? patientId(ref) : undefined;
    if (id) return id;
  }
  let only: string | undefined;
  for (const x of refs) {
    const ref = x.reference;
    for (const one of Array.isArray(ref) ? ref : [ref]) {
      const id = typeof one === 'string' ? patientId(one) : undefined;
      if (!id) continue;
      if (only === undefined) only = id;
      else if (id !== only) return firstPatient(r);
    }
  }
  return only;
}

/** The first reference to a Patient in descendants() order. */
function firstPatient(r: Json): string | undefined {
  // the elements in descendants() order: checked as they are queued, the first found is the first in that order
  const queue: [Json, string][] = [[r, r.resourceType as string]];
  for (let i = 0; i < queue.length; i++) {
    const [o, path] = queue[i]!;
    for (const k in o) {
      if (k === 'resourceType') continue;
      const s = step(path, k);
      const v = o[k];
      const many = Array.isArray(v);
      for (let i = 0, n = many ? v.length : 1; i < n; i++) {
        const x: unknown = many ? v[i] : v;
        if (typeof x !== 'object') continue;
        const rt = (x as Json).resourceType as string | undefined;
        const type = rt || s.type;
        if (type === 'Reference') {
          const ref = (x as Json).reference;
          for (const one of Array.isArray(ref) ? ref : [ref]) {
            const id = typeof one === 'string' ? patientId(one) : undefined;
            if (id) return id;
          }
        }
        queue.push([x as Json, rt || s.typedPath]);
      }
    }
  }
  return undefined;
}

/** The second walk: each value gets what the first rule reaching it does; removed values and emptied elements go. */
class Apply {
  constructor(
    private readonly table: PresetTable,
    private readonly ctx: ActionContext,
  ) {}

  object(o: Json, place: Place): Json {
    const out: Json = {};
    for (const k of Object.keys(o)) {
      const v = o[k];
      if (v === undefined) continue;
      if (k === 'resourceType') {
        out[k] = v;
        continue;
      }
      const plan = place.field(k);
      if (Array.isArray(v)) {
        const items: unknown[] = [];
        for (const x of v) {
          const next = this.value(place, plan, o, k, x);
          if (!(next === REMOVED || (next !== null && typeof next === 'object' && isEmpty(next as Json)) || emptyExtension(k, next))) items.push(next);
        }
        if (items.length > 0) out[k] = items;
      } else {
        const next = this.value(place, plan, o, k, v);
        if (!(next === REMOVED || (next !== null && typeof next === 'object' && isEmpty(next as Json)))) out[k] = next;
      }
    }
    return out;
  }

  private value(place: Place, plan: FieldPlan, o: Json, k: string, x: unknown): unknown {
    if (typeof x === 'string') {
      const best = place.stringRule(plan, o, k, x);
      if (!best) return x;
      return best.action === 'redact' ? REMOVED : changeValue(best.action, o, k, x, this.ctx);
    }
    const rule = place.rule(plan, o, k);
    if (typeof x === 'object') {
      const { table } = this;
      const c = x as Json;
      const rt = c.resourceType as string | undefined;
      const childType = rt || plan.step.type;
      if (rule?.action === 'redact' || (childType !== null && table.removedTypes.has(childType))) return REMOVED;
      if (typeof c.url === 'string' && table.removedUrls.has(c.url)) return REMOVED;
      return this.object(c, place.child(plan, rt));
    }
    return rule?.action === 'redact' ? REMOVED : x;
  }
}

function isEmpty(o: Json): boolean {
  for (const _ in o) return false;
  return true;
}
