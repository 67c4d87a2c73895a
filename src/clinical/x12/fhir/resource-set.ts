import type { Bundle, BundleEntry, Reference, Resource } from '@medplum/fhirtypes';

/**
 * A stable UUID for a key (cyrb128, four 32-bit lanes, shaped as a version-5-style UUID): converting the same
 * interchange twice gives the same ids, so a re-run upserts instead of duplicating. Not a cryptographic hash.
 */
export function stableUuid(key: string): string {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < key.length; i++) {
    const k = key.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  const hex = [h1 ^ h2 ^ h3 ^ h4, h2 ^ h1, h3 ^ h1, h4 ^ h1].map((h) => (h >>> 0).toString(16).padStart(8, '0')).join('');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The resources of one conversion, each once: `add(key, make)` makes a resource the first time its key is seen
 * (a patient met in three claims is one Patient) and answers a reference to it (`urn:uuid:…`).
 */
export class ResourceSet {
  private readonly entries = new Map<string, BundleEntry>();

  constructor(private readonly scope: string) {}

  /** The stable id of a key, for a resource the caller places in the bundle itself. */
  idFor(key: string): string {
    return stableUuid(`${this.scope}|${key}`);
  }

  add<T extends Resource>(key: string, make: (id: string) => T, display?: string): Reference<T> {
    const id = this.idFor(key);
    if (!this.entries.has(key)) this.entries.set(key, { fullUrl: `urn:uuid:${id}`, resource: make(id) });
    return { reference: `urn:uuid:${id}`, ...(display ? { display } : {}) } as Reference<T>;
  }

  resources(): Resource[] {
    return [...this.entries.values()].map((e) => e.resource!);
  }

  bundle(): Bundle {
    return { resourceType: 'Bundle', type: 'collection', entry: [...this.entries.values()] };
  }
}
