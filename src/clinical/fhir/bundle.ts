import { createHash } from 'node:crypto';
import type { Bundle, BundleEntry, Resource } from '@medplum/fhirtypes';

/**
 * Bundles: split one into its resources (by type), merge resources and bundles into one (collection or
 * transaction, deduplicated by type/id), and resolve references between entries.
 */

export function isBundle(value: unknown): value is Bundle {
  return !!value && typeof value === 'object' && (value as { resourceType?: unknown }).resourceType === 'Bundle';
}

export function isResource(value: unknown): value is Resource {
  return !!value && typeof value === 'object' && !Array.isArray(value) && typeof (value as { resourceType?: unknown }).resourceType === 'string';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `urn:uuid:` of the id when it is a UUID, else a UUID derived from `Type/id` (the same every time). */
function fullUrlOf(r: Resource): string | undefined {
  if (!r.id) return undefined;
  if (UUID.test(r.id)) return `urn:uuid:${r.id.toLowerCase()}`;
  const h = createHash('sha256').update(`${r.resourceType}/${r.id}`).digest('hex');
  const variant = ((parseInt(h[16]!, 16) & 3) | 8).toString(16);
  return `urn:uuid:${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Finds what `reference` points to in the bundle: an entry's fullUrl, `Type/id`, or an absolute URL ending in `Type/id`. */
export function resolveReference(bundle: Bundle, reference: string): Resource | undefined {
  const entries = bundle.entry ?? [];
  const byUrl = entries.find((e) => e.fullUrl === reference);
  if (byUrl?.resource) return byUrl.resource;
  const m = /(?:^|\/)([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/[^/]+)?$/.exec(reference);
  if (!m) return undefined;
  return entries.find((e) => e.resource?.resourceType === m[1] && e.resource?.id === m[2])?.resource;
}

/** Every `reference` string in a value, with a function that replaces it. */
function eachReference(value: unknown, visit: (ref: string, set: (next: string) => void) => void): void {
  if (Array.isArray(value)) {
    for (const v of value) eachReference(v, visit);
    return;
  }
  if (!value || typeof value !== 'object') return;
  const obj = value as Record<string, unknown>;
  if (typeof obj.reference === 'string') visit(obj.reference, (next) => (obj.reference = next));
  for (const [k, v] of Object.entries(obj)) if (k !== 'reference' && typeof v === 'object') eachReference(v, visit);
}

export interface SplitOptions {
  /** Keep only these resource types (all when empty). */
  types?: readonly string[];
  /** Rewrite `urn:uuid:` references to entries of the bundle as `Type/id` (when the target has an id), so each resource stands alone. */
  relativeReferences?: boolean;
}

/** The resources of a bundle, in entry order (copies when references are rewritten). */
export function splitBundle(bundle: Bundle, options: SplitOptions = {}): Resource[] {
  const wanted = options.types?.length ? new Set(options.types) : undefined;
  const out: Resource[] = [];
  for (const entry of bundle.entry ?? []) {
    const r = entry.resource;
    if (!r || (wanted && !wanted.has(r.resourceType))) continue;
    if (!options.relativeReferences) {
      out.push(r);
      continue;
    }
    const copy = structuredClone(r);
    eachReference(copy, (ref, set) => {
      if (!ref.startsWith('urn:')) return;
      const target = resolveReference(bundle, ref);
      if (target?.id) set(`${target.resourceType}/${target.id}`);
    });
    out.push(copy);
  }
  return out;
}

/** Resource type → its resources, in entry order. */
export function groupByType(resources: readonly Resource[]): Record<string, Resource[]> {
  const out: Record<string, Resource[]> = {};
  for (const r of resources) (out[r.resourceType] ??= []).push(r);
  return out;
}

export interface MergeOptions {
  type?: 'collection' | 'transaction';
}

export interface MergeResult {
  bundle: Bundle;
  /** Resources dropped because one with the same type and id came earlier (the later one wins). */
  duplicates: number;
  /** References that point to no entry of the merged bundle (resolved elsewhere, or missing). */
  unresolved: string[];
}

/**
 * Merges resources and bundles (their entries) into one bundle. A resource met again with the same type/id
 * replaces the earlier one in its place; references to a dropped copy's fullUrl are redirected to the kept
 * entry's. Transaction entries get `request`: PUT `Type/id` for a resource with an id, POST `Type` otherwise.
 */
export function mergeBundles(items: readonly unknown[], options: MergeOptions = {}): MergeResult {
  const type = options.type ?? 'collection';
  const entries: BundleEntry[] = [];
  const byKey = new Map<string, number>();
  const renamed = new Map<string, string>();
  let duplicates = 0;
  const add = (resource: Resource, fullUrl: string | undefined) => {
    const key = resource.id ? `${resource.resourceType}/${resource.id}` : undefined;
    const at = key === undefined ? undefined : byKey.get(key);
    if (at !== undefined) {
      duplicates++;
      const kept = entries[at]!;
      if (fullUrl && kept.fullUrl && fullUrl !== kept.fullUrl) renamed.set(fullUrl, kept.fullUrl);
      entries[at] = { ...kept, resource: structuredClone(resource) };
      return;
    }
    const url = fullUrl ?? fullUrlOf(resource) ?? `urn:uuid:${crypto.randomUUID()}`;
    if (key) byKey.set(key, entries.length);
    entries.push({ fullUrl: url, resource: structuredClone(resource) });
  };
  for (const item of items) {
    if (isBundle(item)) {
      for (const e of item.entry ?? []) if (e.resource) add(e.resource, e.fullUrl);
    } else if (isResource(item)) add(item, undefined);
    else throw new Error(`Cannot merge ${Array.isArray(item) ? 'an array' : typeof item}: give FHIR resources or bundles`);
  }
  const bundle: Bundle = { resourceType: 'Bundle', type, entry: entries };
  const unresolved = new Set<string>();
  for (const e of entries) {
    eachReference(e.resource, (ref, set) => {
      const to = renamed.get(ref);
      if (to) set(to);
      if (!ref.startsWith('#') && !resolveReference(bundle, to ?? ref)) unresolved.add(ref);
    });
    if (type === 'transaction') {
      const r = e.resource!;
      e.request = r.id ? { method: 'PUT', url: `${r.resourceType}/${r.id}` } : { method: 'POST', url: r.resourceType };
    }
  }
  return { bundle, duplicates, unresolved: [...unresolved] };
}
