import type { NodeType } from '../node-type';
import { NODE_DESCRIPTORS } from './descriptors';
import { IMPLEMENTATIONS } from './implementations';

/**
 * The engine's registry (server): each node's descriptor joined with how it runs. Adding a node type is its
 * own files, a line in ./registry.ts and the entry ./implementations.ts must then have (the compiler asks for it).
 */
const byId = new Map<string, NodeType>(Object.values(IMPLEMENTATIONS).map((n) => [n.id, n]));

/** In catalog order (the descriptors'). */
export const NODE_TYPES: readonly NodeType[] = NODE_DESCRIPTORS.map((d) => {
  const node = byId.get(d.id);
  if (!node) throw new Error(`Node type "${d.id}" has a descriptor but no implementation in src/engine/nodes/implementations.ts.`);
  return node;
});

export function getNodeType(id: string): NodeType | undefined {
  return byId.get(id);
}
