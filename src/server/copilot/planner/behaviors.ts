import type { NodePlan } from '@/engine/node-plan';
import { NODE_DESCRIPTORS, getNodeDescriptor } from '@/engine/nodes/descriptors';

/**
 * How each node type takes part in a data flow, beyond its port types: its descriptor's `plan` (the port the
 * flow enters and leaves by, what the value must be, the config that fits the flow, what comes out, where in a
 * pipeline it belongs). Port types themselves are read from the catalog (the descriptor's ports for the config)
 * and checked with `portsFit`. Node types without a plan are not here: the planner never places them.
 */
export type Behavior = NodePlan;

export const BEHAVIORS: Readonly<Record<string, Behavior>> = Object.fromEntries(NODE_DESCRIPTORS.flatMap((d) => (d.plan ? [[d.id, d.plan]] : [])));

/** The planned node types, in catalog order. */
const PLANNED = NODE_DESCRIPTORS.filter((d) => d.plan).map((d) => ({ type: d.id, plan: d.plan! }));

/** Node types whose plan says something of them, in catalog order. */
export const plannedWhere = (test: (plan: NodePlan) => unknown): string[] => PLANNED.filter((p) => test(p.plan)).map((p) => p.type);

/** Node types the planner may put between two steps whose ports or values do not fit. */
export const CONVERTERS = plannedWhere((p) => p.converter);

/** Whether two node types share a job (two validators, two de-identifiers…). */
export const shareJob = (a: string, b: string): boolean => Boolean(BEHAVIORS[a]?.jobs?.some((j) => BEHAVIORS[b]?.jobs?.includes(j)));

/** Whether a node type does a job. */
export const doesJob = (type: string, job: string): boolean => Boolean(BEHAVIORS[type]?.jobs?.includes(job));

export { connectorTypeOf } from '@/engine/nodes/descriptors';

/** The node type of a pipeline's outputs, and whether a type is one. */
export const OUTPUT_TYPE = plannedWhere((p) => p.role === 'output')[0]!;
export const isOutput = (type: string): boolean => BEHAVIORS[type]?.role === 'output';

/** The events a trigger type starts on (none: only an execute request); undefined for a type that is not a trigger. */
export const triggerEventsOf = (type: string): string[] | undefined => getNodeDescriptor(type)?.trigger?.events;

/** The trigger node type of an event kind (the descriptor's `trigger.events`; `manual`: the one that lists none). */
export const triggerTypeOf = (event: string): string => {
  const d = NODE_DESCRIPTORS.find((n) => n.trigger && (event === 'manual' ? n.trigger.events.length === 0 : n.trigger.events.some((e) => e === event)));
  if (!d) throw new Error(`no trigger node type takes ${event} events`);
  return d.id;
};
