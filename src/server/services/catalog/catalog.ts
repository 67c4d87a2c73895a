import { z } from 'zod';
import { NODE_TYPES, getNodeType } from '@/engine/nodes';
import type { NodeType } from '@/engine/types';
import { AppError } from '@/server/errors';

export const CATEGORIES = ['healthcare', 'ai', 'data', 'output', 'control', 'claims'] as const;

/** A catalog entry as the spec and DESIGN.md §3 describe it, ports shown for the default config. */
function toEntry(node: NodeType, full: boolean) {
  const defaults = node.config.safeParse({});
  // a node whose config has required fields still shows the ports that do not depend on them
  const config = defaults.success ? defaults.data : {};
  const ports = (side: 'inputs' | 'outputs') => {
    try {
      return node[side](config as never);
    } catch {
      return [];
    }
  };
  return {
    id: node.id,
    name: node.name,
    category: node.category,
    description: node.description,
    version: node.version,
    keywords: node.keywords,
    side_effect: node.side_effect,
    trigger: node.trigger ?? false,
    inputs: ports('inputs'),
    outputs: ports('outputs'),
    config_schema: z.toJSONSchema(node.config, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
    ...(full ? { documentation: node.documentation } : {}),
  };
}

export type CatalogEntry = ReturnType<typeof toEntry>;

const cache = new Map<string, CatalogEntry>();
function entry(node: NodeType, full: boolean): CatalogEntry {
  const key = `${node.id}:${full}`;
  let e = cache.get(key);
  if (!e) cache.set(key, (e = toEntry(node, full)));
  return e;
}

export function listCatalog(category?: (typeof CATEGORIES)[number]) {
  const nodes = NODE_TYPES.filter((n) => !category || n.category === category).map((n) => entry(n, true));
  return { nodes, categories: [...CATEGORIES], total_count: nodes.length };
}

/** Case-insensitive match of every word against name, id, description and keywords. */
export function searchCatalog(query: string) {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const nodes = NODE_TYPES.filter((n) => {
    const text = [n.id, n.name, n.description, ...n.keywords].join(' ').toLowerCase();
    return words.every((w) => text.includes(w));
  }).map((n) => entry(n, true));
  return { nodes, total_count: nodes.length, query };
}

export function getCatalogEntry(id: string): CatalogEntry {
  const node = getNodeType(id);
  if (!node) throw new AppError('NODE_TYPE_NOT_FOUND', `There is no node type "${id}" in the catalog.`);
  return entry(node, true);
}
