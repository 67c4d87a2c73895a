'use client';

import { createContext, useContext } from 'react';
import { api } from '@/trpc/react';
import { nodePorts } from './ports';
import { useEditor } from './store-provider';
import type { CatalogEntry, FlowNode } from './types';

export interface NodeInput {
  has: boolean;
  /** The value on the node's first input port. */
  input: unknown;
  /** Where it comes from: the node's input in the run shown in the drawer, or the upstream node's pinned output. */
  source: 'run' | 'pinned' | null;
}

const NONE: NodeInput = { has: false, input: undefined, source: null };

/**
 * The sample an expression of this node is written against: the node's input in the last run shown, or
 * else the pinned output of the node wired into its first input port (what a test run would feed it).
 */
export function useNodeInput(node: FlowNode, entry: CatalogEntry | undefined): NodeInput {
  const { executionId, edges, nodes } = useEditor((s) => ({ executionId: s.executionId, edges: s.edges, nodes: s.nodes }));
  const detail = api.executions.get.useQuery({ id: executionId ?? '' }, { enabled: !!executionId, refetchOnWindowFocus: false });
  const port = entry ? nodePorts(entry, node.data.config).inputs[0]?.name : undefined;
  if (!port) return NONE;
  const inputs = detail.data?.nodes.find((n) => n.node_id === node.id)?.inputs as Record<string, unknown> | null | undefined;
  if (inputs && port in inputs) return { has: true, input: inputs[port], source: 'run' };
  const edge = edges.find((e) => e.target === node.id && (e.targetHandle ?? port) === port);
  const pinned = edge ? nodes.find((n) => n.id === edge.source)?.data.pinned : undefined;
  if (pinned && edge?.sourceHandle && edge.sourceHandle in pinned) return { has: true, input: pinned[edge.sourceHandle], source: 'pinned' };
  return NONE;
}

/** The sample input of the node whose config form is open, for the expression editors in it. */
export const ExpressionInputContext = createContext<NodeInput>(NONE);

export function useExpressionInput(): NodeInput {
  return useContext(ExpressionInputContext);
}
