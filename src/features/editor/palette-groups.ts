import { CATEGORY_ORDER } from './node-look';
import type { CatalogEntry } from './types';

export interface PaletteGroup {
  category: CatalogEntry['category'];
  entries: CatalogEntry[];
}

function matches(entry: CatalogEntry, words: string[]): boolean {
  const text = [entry.id, entry.name, entry.description, entry.category, ...entry.keywords].join(' ').toLowerCase();
  return words.every((w) => text.includes(w));
}

/** What the palette shows: the catalog's entries that match every word of the query, by category, by name within one. */
export function paletteGroups(catalog: Record<string, CatalogEntry> | CatalogEntry[], query: string): PaletteGroup[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const found = Object.values(catalog).filter((e) => matches(e, words));
  return CATEGORY_ORDER.map((c) => ({ category: c, entries: found.filter((e) => e.category === c).sort((a, b) => a.name.localeCompare(b.name)) })).filter(
    (g) => g.entries.length > 0,
  );
}
