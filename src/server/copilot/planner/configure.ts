import { BEHAVIORS, connectorTypeOf } from './behaviors';
import type { Flow } from './flow';
import { predicate, switchCases } from './predicate';
import type { Request } from './read';

export interface Connector {
  name: string;
  type: string;
}

/** What configuring one node needs: the request, the connectors, and what was already taken. */
export interface ConfigContext {
  req: Request;
  connectors: Connector[];
  /** Connector names given to nodes so far, so a second FHIR node gets another one when there are several. */
  used: Set<string>;
}

export interface Configured {
  config: Record<string, unknown>;
  /** Facts the planner read into the config, for the reasoning. */
  filled: string[];
  /** What it could not fill. */
  missing: string[];
}

/**
 * A connector for a node: one named in the request (quoted, or its name written out), else the only one of
 * its type; with several, readers take the first the request names and writers the last. Null when the
 * options give none of that type.
 */
function pickConnector(type: string, ctx: ConfigContext): string | null {
  const kind = connectorTypeOf(type)!;
  const ofType = ctx.connectors.filter((c) => c.type === kind);
  const quoted = ctx.req.quoted.filter((q) => !ofType.some((c) => c.name.toLowerCase() === q.toLowerCase()));
  if (ofType.length === 0) {
    const named = quoted.find(
      (q) =>
        !ctx.used.has(q) &&
        new RegExp(`${kind === 'hl7-mllp' ? 'mllp|lis|system|interface' : kind}|server|ehr|warehouse|endpoint|database|api|connector`, 'i').test(
          ctx.req.text.slice(ctx.req.text.indexOf(q) - 40, ctx.req.text.indexOf(q) + q.length + 40),
        ),
    );
    return named ?? null;
  }
  const mentioned = ofType
    .map((c) => ({ c, at: ctx.req.lower.indexOf(c.name.toLowerCase()) }))
    .filter((m) => m.at >= 0)
    .sort((a, b) => a.at - b.at)
    .map((m) => m.c.name);
  const free = (names: string[]) => names.filter((n) => !ctx.used.has(n));
  const reading = BEHAVIORS[type]?.role === 'source';
  const pool = mentioned.length ? mentioned : ofType.map((c) => c.name);
  const choice = reading ? (free(pool)[0] ?? pool[0]) : (free(pool).at(-1) ?? pool.at(-1));
  return choice ?? null;
}

/**
 * A node's config: what fits the flow (from its behavior), the connector of its type, then what the request says (its
 * descriptor's `plan.configure`). Defaults stay implicit.
 */
export function configure(type: string, base: Record<string, unknown>, flow: Flow, ctx: ConfigContext): Configured {
  const { req } = ctx;
  const config: Record<string, unknown> = { ...base };
  const filled: string[] = [];
  const missing: string[] = [];
  const connectorType = connectorTypeOf(type);
  if (connectorType && !BEHAVIORS[type]?.ownConnector) {
    const name = pickConnector(type, ctx);
    if (name) {
      config.connector = name;
      ctx.used.add(name);
      filled.push(`connector "${name}"`);
    } else missing.push(`connector: no ${connectorType} connector was given; pick one on the Connectors page`);
  }
  BEHAVIORS[type]?.configure?.({
    text: req.text,
    lower: req.lower,
    resourceTypes: req.resourceTypes,
    fields: req.fields,
    urls: req.urls,
    table: req.table,
    schedule: req.trigger.schedule,
    port: req.trigger.port,
    flow,
    connectors: ctx.connectors,
    used: ctx.used,
    predicate: (perItem) => predicate(req, flow, perItem),
    switchCases: () => switchCases(req, flow),
    config,
    filled,
    missing,
  });
  return { config, filled, missing };
}
