import { type BirthDatePolicy, birthDateOutcome, CACHED, pseudonym, shiftDays, shiftFhirDate } from './keyed';
import type { Scrubber } from './scrub';
import { zip3 } from './zip3';
import type { FhirAction } from './fhir-rules';

/**
 * What the FHIR de-identification's actions do to one value, and the Bundle's own fields: shared by the rules
 * interpreted one by one (fhir.ts) and the preset compiled per resource type (fhir-preset.ts).
 */

type Json = Record<string, unknown>;
/** A value a rule removes: array elements so marked are dropped when the resource is compacted */
export const REMOVED = Symbol('removed');

/** The patients of an input by id: the identity their dates shift by (MRN or id), the date of death when known */
export type Identities = Map<string, { identity: string; deceased?: string }>;

/** What a value's changes depend on besides itself: the keys, the patient's shift and scrubber, the birth-date policy. */
export interface ActionContext {
  key: Uint8Array;
  policy: BirthDatePolicy;
  days: number;
  scrubber: Scrubber;
  birthAt: Date;
}

/** The new value of string `value` at `obj[field]` under `action` (REMOVED to remove it). */
export function changeValue(action: FhirAction, obj: Json, field: string, value: string, ctx: ActionContext): unknown {
  switch (action) {
    case 'keep':
      return value;
    case 'hash':
      return field === 'reference' || field === 'fullUrl' ? hashReference(ctx.key, value) : pseudonym(ctx.key, value);
    case 'date-shift':
      return shiftFhirDate(value, ctx.days);
    case 'birth-date': {
      const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?/.exec(value);
      if (!m) return REMOVED;
      const outcome = birthDateOutcome({ y: Number(m[1]), m: Number(m[2] ?? 1), d: Number(m[3] ?? 1) }, ctx.birthAt, ctx.policy);
      if (!outcome) return REMOVED;
      return 'year' in outcome ? String(outcome.year).padStart(4, '0') : shiftFhirDate(value, ctx.days);
    }
    case 'zip3':
      return zip3(value) ?? REMOVED;
    case 'region':
      return REGION.test(value.trim()) ? ctx.scrubber.scrubKnown(value) : REMOVED;
    case 'scrub':
      if (field === 'data') return scrubBase64(value, obj.contentType, ctx.scrubber);
      if (field === 'div') return scrubXhtml(value, ctx.scrubber);
      return ctx.scrubber.scrub(value);
    default:
      return REMOVED;
  }
}

/** The Bundle's own fields: id, identifier, fullUrls, request and response urls, timestamp; links dropped. */
export function bundleShell(b: Json, key: Uint8Array, patients: Set<string>, maxDays: number): void {
  if (typeof b.id === 'string') b.id = pseudonym(key, b.id);
  const identifier = b.identifier as Json | undefined;
  if (identifier && typeof identifier.value === 'string') identifier.value = pseudonym(key, identifier.value);
  const days = shiftDays(key, patients.size === 1 ? [...patients][0]! : '', maxDays);
  if (typeof b.timestamp === 'string') b.timestamp = shiftFhirDate(b.timestamp, days);
  delete b.link;
  for (const e of (b.entry as Json[] | undefined) ?? []) {
    if (typeof e.fullUrl === 'string') e.fullUrl = hashReference(key, e.fullUrl);
    const request = e.request as Json | undefined;
    if (request && typeof request.url === 'string') request.url = hashReference(key, request.url);
    const response = e.response as Json | undefined;
    if (response && typeof response.location === 'string') response.location = hashReference(key, response.location);
    if ((e.resource as Json | undefined)?.resourceType === 'Bundle') bundleShell(e.resource as Json, key, patients, maxDays);
    delete e.link;
  }
}

/** A state or a country as people write them: letters (any script), spaces, dots, hyphens, apostrophes */
export const REGION = /^[\p{L}][\p{L} .'-]*$/u;
export const DATE_LIKE = /^\d{4}-\d{2}(?:-\d{2}(?:T[\d:.]+(?:Z|[+-]\d{2}:\d{2})?)?)?$/;
/** Coded and structural strings the free-text net leaves alone */
export const NOT_TEXT = new Set([
  'system',
  'code',
  'url',
  'reference',
  'id',
  'resourceType',
  'status',
  'use',
  'gender',
  'unit',
  'contentType',
  'language',
  'profile',
  'version',
  'versionId',
  'fullUrl',
  'intent',
  'type',
  'mode',
  'data',
]);

/** FHIR's code for a value withheld for privacy (data-absent-reason `masked`). */
const MASKED = { extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason', valueCode: 'masked' }] };

/**
 * An Organization needs a name or an identifier (R4's org-1). One known by its name alone, which Safe Harbor
 * removes, keeps a name marked as withheld instead of becoming invalid FHIR that a FHIR server refuses.
 */
export function keepOrganizationValid(org: Json): void {
  if (org.name === undefined && org._name === undefined && !Array.isArray(org.identifier)) org._name = MASKED;
}

/**
 * A Patient's contact needs a name, telecom, address or organization (R4's pat-1). One known by a name, phone or address
 * alone, which Safe Harbor removes, keeps a name marked as withheld (with its relationship and period) instead.
 */
export function keepContactsValid(patient: Json): void {
  if (!Array.isArray(patient.contact)) return;
  for (const c of patient.contact as unknown[]) {
    if (!c || typeof c !== 'object') continue;
    const contact = c as Json;
    if (contact.name === undefined && contact.telecom === undefined && contact.address === undefined && contact.organization === undefined)
      contact.name = structuredClone(MASKED);
  }
}

/** An extension left with its url alone (its value removed): FHIR's ext-1 wants a value or extensions. */
export function emptyExtension(k: string, x: unknown): boolean {
  return (k === 'extension' || k === 'modifierExtension') && !!x && typeof x === 'object' && Object.keys(x).every((key) => key === 'url');
}

/**
 * A narrative's XHTML scrubbed where people write: the text between tags and the `href`, `src`, `title` and `alt`
 * attributes (the `xmlns` FHIR requires, and the markup, stay as they are).
 */
export function scrubXhtml(div: string, scrubber: Scrubber): string {
  return div.replace(/(<[^>]*>)|([^<]+)/g, (m, tag: string | undefined) =>
    tag
      ? tag.replace(/\b(href|src|title|alt)="([^"]*)"/g, (_, name: string, v: string) => `${name}="${scrubber.scrub(v).replace(/"/g, '&quot;')}"`)
      : scrubber.scrub(m),
  );
}

/** Base64 text (a note) decoded, scrubbed and encoded again; binary data (or a text type that is not UTF-8) removed. */
export function scrubBase64(data: string, contentType: unknown, scrubber: Scrubber): string | typeof REMOVED {
  const type = typeof contentType === 'string' ? contentType.toLowerCase() : '';
  const textual = /^text\/|^application\/(?:json|xml|fhir\+json|fhir\+xml|xhtml\+xml|rtf)|^application\/hl7-v2/.test(type);
  if (!textual) return REMOVED;
  const bytes = Buffer.from(data, 'base64');
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (text.includes('\uFFFD')) return REMOVED;
  return Buffer.from(scrubber.scrub(text), 'utf8').toString('base64');
}

/**
 * A reference with its ids pseudonymized and its shape kept: `Patient/123` → `Patient/<pseudonym of 123>`,
 * `urn:uuid:…`, conditional `Type?identifier=system|value` (the value hashed as identifier values are, so it still
 * matches the referenced resource's hashed identifier), absolute URLs (base kept). `#contained` stays.
 */
export function hashReference(key: Uint8Array, ref: string): string {
  if (ref.startsWith('#')) return ref;
  // one message names the same resources again and again (fullUrl, request url, every subject): kept per key
  let known = references.get(key);
  if (!known) references.set(key, (known = new Map()));
  let hashed = known.get(ref);
  if (hashed === undefined) {
    if (known.size >= CACHED) known.clear();
    known.set(ref, (hashed = hashReferenceOnce(key, ref)));
  }
  return hashed;
}

const references = new WeakMap<Uint8Array, Map<string, string>>();

function hashReferenceOnce(key: Uint8Array, ref: string): string {
  const urn = /^urn:(?:uuid|oid):(.+)$/i.exec(ref);
  if (urn) return `urn:uuid:${pseudonym(key, urn[1]!)}`;
  const conditional = /^([A-Z][A-Za-z]+)\?(.*)$/.exec(ref);
  if (conditional) {
    const params = conditional[2]!.split('&').map((p) => {
      const eq = p.indexOf('=');
      if (eq < 0) return p;
      const value = decodeURIComponent(p.slice(eq + 1));
      const bar = value.lastIndexOf('|');
      const hashed = bar >= 0 ? `${value.slice(0, bar + 1)}${pseudonym(key, value.slice(bar + 1))}` : pseudonym(key, value);
      return `${p.slice(0, eq)}=${hashed}`;
    });
    return `${conditional[1]}?${params.join('&')}`;
  }
  const literal = /^(.*?)([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})(\/_history\/[A-Za-z0-9\-.]{1,64})?$/.exec(ref);
  if (literal) return `${literal[1]}${literal[2]}/${pseudonym(key, literal[3]!)}`;
  if (/^[A-Z][A-Za-z]+$/.test(ref)) return ref; // a request url naming only the type
  return pseudonym(key, ref);
}
