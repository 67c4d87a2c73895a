import { ElementIndex } from './fhir-elements';
import { type FhirRule, fieldNames, SAFE_HARBOR_RULES, type Target, targets } from './fhir-rules';
import { type BirthDatePolicy, checkKey, shiftDays, shiftFhirDate } from './keyed';
import { KnownIdentifiers, Scrubber } from './scrub';
import { collectKnown, medicalRecordNumber, ownStrings, patientReference } from './fhir-people';
import { jsonCopy } from './json-copy';
import {
  bundleShell,
  changeValue,
  DATE_LIKE,
  emptyExtension,
  type Identities,
  keepContactsValid,
  keepOrganizationValid,
  NOT_TEXT,
  REMOVED,
} from './fhir-actions';
import { deidentifyByPreset } from './fhir-preset';

export { hashReference } from './fhir-actions';

export interface FhirDeidOptions {
  /** The organization's secret (32 bytes) */
  key: Uint8Array;
  /** Rules applied before the preset (the first rule to reach a field decides it) */
  rules?: readonly FhirRule[];
  /** `safe-harbor`: the default rules after yours; `none`: only yours */
  preset?: 'safe-harbor' | 'none';
  /** Dates move by up to this many days, forwards or backwards (never 0), the same for all of one patient's data */
  maxShiftDays?: number;
  birthDate?: Partial<BirthDatePolicy>;
  /**
   * What a patient's date shift is derived from: `mrn` (default) the Patient's medical-record number (identifier
   * typed MR, else its first identifier) when the Patient is in the input, else the id its references name — so
   * data converted from HL7 v2 (where PID-3 is the MRN) links with the HL7 message; `id` always its logical id.
   */
  patientIdentity?: 'mrn' | 'id';
  /** When ages count for patients who are alive (default: now) */
  now?: Date;
}

type Json = Record<string, unknown>;

export interface FhirDeidResult<T> {
  value: T;
  /** Resources processed (a Bundle's entries, not the Bundle) */
  resources: number;
}

/** De-identifies a FHIR R4 resource or Bundle (a copy; the input is left as it was). */
export function deidentifyFhir<T>(input: T, options: FhirDeidOptions): FhirDeidResult<T> {
  const key = checkKey(options.key);
  // the preset alone (a feed's configuration) takes its compiled form when the input is plain, well-typed FHIR
  const compiled = (options.rules?.length ?? 0) === 0 && (options.preset ?? 'safe-harbor') === 'safe-harbor';
  const fast = compiled ? deidentifyByPreset(input, options, key) : undefined;
  if (fast) return fast as FhirDeidResult<T>;
  return interpreted(input, options, key);
}

/**
 * The same de-identification by the rules run one after the other on each resource, whatever the options and input:
 * what user rules and inputs the compiled preset does not cover get, and the reference the compiled preset is held to
 * byte for byte (fhir-equivalence.test.ts), as validateFhirReference is for the compiled validator.
 */
export function deidentifyFhirInterpreted<T>(input: T, options: FhirDeidOptions): FhirDeidResult<T> {
  return interpreted(input, options, checkKey(options.key));
}

function interpreted<T>(input: T, options: FhirDeidOptions, key: Uint8Array): FhirDeidResult<T> {
  // a JSON copy, not structuredClone: an object the input shares between resources (one reference object used
  // as two resources' subject) must become two, or de-identifying one would change, or hash twice, the other
  const copy = jsonCopy(input) as Json;
  const all = resourcesOf(copy);
  const identities = interpret(all, options, key);
  if (copy.resourceType === 'Bundle') bundleShell(copy, key, new Set([...identities.values()].map((p) => p.identity)), options.maxShiftDays ?? 365);
  return { value: copy as T, resources: all.filter((r) => r.resourceType !== 'Bundle').length };
}

/** The rules run one after the other on each resource (user rules in FHIRPath, or an input the compiled preset does not cover). */
function interpret(all: Json[], options: FhirDeidOptions, key: Uint8Array): Identities {
  const run = new Run(options, key, all);
  for (const r of all) run.resource(r);
  return run.identities;
}

/** Every resource of the input: itself, or a Bundle's entries (and nested Bundles' entries). */
function resourcesOf(input: Json): Json[] {
  if (input.resourceType !== 'Bundle') return [input];
  const out: Json[] = [];
  for (const e of (input.entry as Json[] | undefined) ?? []) {
    const r = e?.resource as Json | undefined;
    if (r && typeof r === 'object') out.push(...resourcesOf(r));
  }
  return out;
}

class Run {
  private readonly rules: readonly FhirRule[];
  /** Each resource as it was before any rule ran: its field names, its elements (none when fhirpath.js must be asked) */
  private readonly before = new Map<Json, { fields: Set<string>; index: ElementIndex | undefined }>();
  /** Fields a rule reached already, per object: a whole field (`true`) or some of its array items (their indices) */
  private readonly handled = new WeakMap<object, Map<string, true | Set<number>>>();
  readonly identities: Identities = new Map();
  private readonly known = new KnownIdentifiers();
  private readonly scrubbers = new Map<number, Scrubber>();
  private readonly policy: BirthDatePolicy;
  private readonly maxDays: number;

  constructor(
    private readonly options: FhirDeidOptions,
    private readonly key: Uint8Array,
    resources: Json[],
  ) {
    this.rules = [...(options.rules ?? []), ...((options.preset ?? 'safe-harbor') === 'safe-harbor' ? SAFE_HARBOR_RULES : [])];
    this.policy = { keepYear: options.birthDate?.keepYear ?? true, over89: options.birthDate?.over89 ?? 'boundary' };
    this.maxDays = options.maxShiftDays ?? 365;
    for (const r of resources) {
      const before = { fields: fieldNames(r), index: ElementIndex.of(r) };
      this.before.set(r, before);
      collectKnown(r, this.known, before);
      if (r.resourceType === 'Patient' && typeof r.id === 'string') {
        const mrn = options.patientIdentity === 'id' ? undefined : medicalRecordNumber(r);
        this.identities.set(r.id, { identity: mrn ?? r.id, ...(typeof r.deceasedDateTime === 'string' ? { deceased: r.deceasedDateTime } : {}) });
      }
    }
  }

  /** The identity (MRN or id) of the patient a resource is about, '' when it is about no patient. */
  private patientOf(r: Json, index: ElementIndex | undefined): { identity: string; deceased?: string } {
    if (r.resourceType === 'Patient' && typeof r.id === 'string') return this.identities.get(r.id)!;
    const id = patientReference(r, index);
    if (id === undefined) return { identity: '' };
    return this.identities.get(id) ?? { identity: id };
  }

  resource(r: Json): void {
    if (r.resourceType === 'Bundle') return; // its entries are processed on their own, its shell at the end
    const { fields, index: first } = this.before.get(r)!;
    const named = r.resourceType === 'Organization' && r.name !== undefined;
    const patient = this.patientOf(r, first);
    const days = shiftDays(this.key, patient.identity, this.maxDays);
    const ctx = { days, scrubber: this.scrubber(days), birthAt: patient.deceased ? new Date(patient.deceased) : (this.options.now ?? new Date()) };
    // the preset's rules find their elements in the index; the user's rules (any FHIRPath) run before them
    // through fhirpath.js, and the index is made again after them when there are any
    const userRules = this.options.rules?.length ?? 0;
    let index = userRules === 0 ? first : undefined;
    this.rules.forEach((rule, i) => {
      if (i === userRules && i > 0) index = ElementIndex.of(r);
      for (const t of targets(rule.path, r, fields, index)) this.apply(rule, t, ctx);
    });
    this.before.delete(r);
    compact(r);
    if (named) keepOrganizationValid(r);
    if (r.resourceType === 'Patient') keepContactsValid(r);
  }

  private scrubber(days: number): Scrubber {
    let s = this.scrubbers.get(days);
    if (!s) this.scrubbers.set(days, (s = new Scrubber(this.known, { shiftIso: (iso) => shiftFhirDate(iso, days) })));
    return s;
  }

  private isHandled(obj: object, key: string, index?: number): boolean {
    const field = this.handled.get(obj)?.get(key);
    return field === true || (index !== undefined && field !== undefined && field.has(index));
  }

  private mark(obj: object, key: string, index?: number): void {
    let fields = this.handled.get(obj);
    if (!fields) this.handled.set(obj, (fields = new Map()));
    if (index === undefined) return void fields.set(key, true);
    const field = fields.get(key);
    if (field === undefined) fields.set(key, new Set([index]));
    else if (field !== true) field.add(index);
  }

  private apply(rule: FhirRule, t: Target, ctx: Ctx): void {
    if (t.key === '' && rule.action === 'hash') return this.hashOwnStrings(rule, t.obj, ctx);
    if (t.key === '') return this.walk(rule, t.obj, ctx);
    const value = t.obj[t.key];
    if (value === undefined) return;
    if (Array.isArray(value) && t.index === undefined) {
      value.forEach((_, i) => this.apply(rule, { obj: t.obj, key: t.key, index: i }, ctx));
      return;
    }
    if (this.isHandled(t.obj, t.key, t.index)) return;
    this.mark(t.obj, t.key, t.index);
    const current = t.index === undefined ? value : (value as unknown[])[t.index];
    const next = rule.action === 'redact' ? REMOVED : typeof current === 'string' ? this.change(rule, t, current, ctx) : current;
    if (next !== current) set(t, next);
    else if (current && typeof current === 'object' && rule.action !== 'keep') this.walk(rule, current as Json, ctx);
  }

  /** Applies a rule to every field inside an element (the resource itself for `$this`). */
  private walk(rule: FhirRule, obj: Json | unknown[], ctx: Ctx): void {
    if (Array.isArray(obj)) {
      for (const v of obj) if (v && typeof v === 'object') this.walk(rule, v as Json, ctx);
      return;
    }
    // the fields as they are when the walk reaches each (a rule removing `x` removes `_x` too: it is not walked then)
    for (const k of Object.keys(obj)) {
      if (k === 'resourceType') continue;
      const v = obj[k];
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) {
          const item: unknown = v[i];
          if (item && typeof item === 'object') this.walk(rule, item as Json, ctx);
          else if (typeof item === 'string' && this.wants(rule, k, item)) this.apply(rule, { obj, key: k, index: i }, ctx);
        }
      } else if (v && typeof v === 'object') this.walk(rule, v as Json, ctx);
      else if (typeof v === 'string' && this.wants(rule, k, v)) this.apply(rule, { obj, key: k }, ctx);
    }
  }

  /**
   * `hash` on a whole resource: every string (and markdown) it holds as its own, in its fields and backbone
   * elements — not in data types (codings, quantities, extensions…), which have rules of their own — by the R4
   * model's types: `Coverage.subscriberId`, `dependent`, `class.value`, `Account.name`… whatever the model adds.
   */
  private hashOwnStrings(rule: FhirRule, resource: Json, ctx: Ctx): void {
    for (const t of ownStrings(resource)) this.apply(rule, t, ctx);
  }

  /** Which strings an element-wide rule touches: dates for date-shift, text (not codes, ids, urls) for scrub. */
  private wants(rule: FhirRule, key: string, value: string): boolean {
    if (rule.action === 'date-shift') return DATE_LIKE.test(value);
    if (rule.action === 'scrub') return !NOT_TEXT.has(key);
    return true;
  }

  private change(rule: FhirRule, t: Target, value: string, ctx: Ctx): unknown {
    return changeValue(rule.action, t.obj, t.key, value, { ...ctx, key: this.key, policy: this.policy });
  }
}

interface Ctx {
  days: number;
  scrubber: Scrubber;
  birthAt: Date;
}

function set(t: Target, next: unknown): void {
  if (t.index === undefined) {
    if (next === REMOVED) {
      delete t.obj[t.key];
      delete t.obj[`_${t.key}`];
    } else t.obj[t.key] = next;
  } else (t.obj[t.key] as unknown[])[t.index] = next;
}

/** Drops removed array elements, then empty arrays, objects and extensions (FHIR allows none), bottom up. */
function compact(obj: Json): void {
  for (const [k, v] of Object.entries(obj)) {
    if (Array.isArray(v)) {
      const kept = v.filter((x) => x !== REMOVED);
      for (const x of kept) if (x && typeof x === 'object') compact(x as Json);
      const nonEmpty = kept.filter((x) => !(x && typeof x === 'object' && Object.keys(x).length === 0) && !emptyExtension(k, x));
      if (nonEmpty.length === 0) delete obj[k];
      else obj[k] = nonEmpty;
    } else if (v && typeof v === 'object') {
      compact(v as Json);
      if (Object.keys(v).length === 0) delete obj[k];
    }
  }
}
