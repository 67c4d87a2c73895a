import { ENGINE_NODE_ERRORS, type NodeDescriptor } from '@/engine/node-descriptor';
import { catalogPorts, configSchema, nodeDocumentation } from '@/engine/node-docs';
import { NODE_DESCRIPTORS, getNodeDescriptor } from '@/engine/nodes/descriptors';
import { AppError } from '@/server/errors';

export const CATEGORIES = ['healthcare', 'ai', 'data', 'output', 'control', 'claims'] as const;

/** A catalog entry as the spec and DESIGN.md §3 describe it, all read from the node's descriptor. */
function toEntry(d: NodeDescriptor) {
  const ports = catalogPorts(d);
  return {
    id: d.id,
    name: d.name,
    category: d.category,
    description: d.description,
    version: d.version,
    keywords: d.keywords,
    side_effect: d.side_effect,
    trigger: Boolean(d.trigger),
    inputs: ports.inputs,
    outputs: ports.outputs,
    config_schema: configSchema(d),
    example: d.example as Record<string, unknown>,
    errors: Object.entries({ ...d.errors, ...ENGINE_NODE_ERRORS }).map(([code, description]) => ({ code, description })),
    documentation: nodeDocumentation(d),
  };
}

export type CatalogEntry = ReturnType<typeof toEntry>;

/** Entries are made once per process: descriptors do not change while it runs. */
const cache = new Map<string, CatalogEntry>();
function entry(d: NodeDescriptor): CatalogEntry {
  let e = cache.get(d.id);
  if (!e) cache.set(d.id, (e = toEntry(d)));
  return e;
}

export function listCatalog(category?: (typeof CATEGORIES)[number]) {
  const nodes = NODE_DESCRIPTORS.filter((d) => !category || d.category === category).map(entry);
  return { nodes, categories: [...CATEGORIES], total_count: nodes.length };
}

/** Case-insensitive match of every word against name, id, description and keywords. */
export function searchCatalog(query: string) {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const nodes = NODE_DESCRIPTORS.filter((d) => {
    const text = [d.id, d.name, d.description, ...d.keywords].join(' ').toLowerCase();
    return words.every((w) => text.includes(w));
  }).map(entry);
  return { nodes, total_count: nodes.length, query };
}

export function getCatalogEntry(id: string): CatalogEntry {
  const d = getNodeDescriptor(id);
  if (!d) throw new AppError('NODE_TYPE_NOT_FOUND', `There is no node type "${id}" in the catalog.`);
  return entry(d);
}
