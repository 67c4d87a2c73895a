import type { NodeType } from '../types';
import { manualTrigger } from './manual-trigger';
import { pipelineOutput } from './pipeline-output';

/** The explicit registry: adding a node is one file plus one line here. */
export const NODE_TYPES: readonly NodeType[] = [manualTrigger, pipelineOutput] as unknown as NodeType[];

const byId = new Map(NODE_TYPES.map((n) => [n.id, n]));

export function getNodeType(id: string): NodeType | undefined {
  return byId.get(id);
}
