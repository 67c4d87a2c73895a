import type { NodeDescriptor } from '../node-descriptor';
import { NODE_REGISTRY } from './registry';

/**
 * Every node type's descriptor, in catalog order: what the editor, the catalog, the validator and the
 * copilot know of a node. Isomorphic. How each runs is joined in ./index.ts (server).
 */
export const NODE_DESCRIPTORS: readonly NodeDescriptor[] = NODE_REGISTRY;

const byId = new Map(NODE_DESCRIPTORS.map((d) => [d.id, d]));

export function getNodeDescriptor(id: string): NodeDescriptor | undefined {
  return byId.get(id);
}

/** The connector type a node type uses (its config's connector field), if it uses one. */
export function connectorTypeOf(type: string): string | undefined {
  return Object.values(getNodeDescriptor(type)?.ui?.fields ?? {}).find((f) => f.widget === 'connector' && f.connectorType)?.connectorType;
}
