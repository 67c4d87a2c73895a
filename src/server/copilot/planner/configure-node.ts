import { catalogPorts } from '@/engine/node-docs';
import { getNodeDescriptor } from '@/engine/nodes/descriptors';
import type { PortType } from '@/shared/ports';
import { configProblem } from './catalog';
import { configure, type Connector } from './configure';
import { readRequest } from './read';

export interface NodeConfiguration {
  config: Record<string, unknown>;
  /** What was read from the description into the config. */
  filled: string[];
  /** What could not be filled, for the user to finish. */
  missing: string[];
  /** Why the config does not satisfy the node's schema yet (null: it does). */
  problem: string | null;
}

/**
 * A configuration for one node of type `type` from a plain-language description, as the planner configures the
 * nodes it places (cron expressions, connectors, FHIR queries, thresholds, fields…), over `base` (what the node
 * has already). Undefined for a type the catalog does not have.
 */
export function configureNode(
  type: string,
  description: string,
  opts: { base?: Record<string, unknown>; connectors?: Connector[]; inputType?: PortType } = {},
): NodeConfiguration | undefined {
  const d = getNodeDescriptor(type);
  if (!d) return undefined;
  const req = readRequest(description);
  const base = opts.base ?? {};
  const input = (opts.inputType ?? catalogPorts(d).inputs[0]?.type ?? 'trigger-event') as PortType;
  const c = configure(type, base, { type: input, kind: d.trigger ? 'event' : req.data }, { req, connectors: opts.connectors ?? [], used: new Set() });
  return { config: c.config, filled: c.filled, missing: c.missing, problem: configProblem(type, c.config) };
}
