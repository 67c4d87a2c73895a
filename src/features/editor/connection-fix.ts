import { portsFit, type PortType } from '@/shared/ports';
import { defaultConfig } from './definition';
import { connectionProblem, nodePorts, portOf, type ConnectionLike } from './ports';
import type { CatalogEntry, FlowEdge, FlowNode, Port } from './types';

/**
 * What would make a refused connection fit, found from the catalog: a trigger that declares named inputs
 * (manual trigger's `fields`) gets one named after the input and of its type; otherwise a node that turns the
 * one kind of value into the other goes between them (text → HL7 v2 parse → hl7v2-message).
 */
export type ConnectionFix = { kind: 'trigger-field'; field: string; type: PortType } | { kind: 'converter'; types: CatalogEntry[]; from: string; to: string };

const PARSED = new Set<string>(['hl7v2-message', 'x12-interchange']);

/** Whether the trigger's config declares named inputs (`fields`: name → port type). */
function declaresFields(entry: CatalogEntry | undefined): boolean {
  const props = (entry?.config_schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return Boolean(entry?.trigger && props && 'fields' in props);
}

/** A field name for `want` among the trigger's fields: the input's own name, else with a number. */
function fieldName(fields: Record<string, unknown>, want: string): string {
  const base = /^[A-Za-z_][A-Za-z0-9_]*$/.test(want) ? want : 'input';
  let name = base;
  for (let n = 2; name in fields; n++) name = `${base}_${n}`;
  return name;
}

/** The first input and output of a node type that do the conversion, when it has them. */
function converts(entry: CatalogEntry, from: PortType, to: PortType): boolean {
  if (entry.trigger) return false;
  const { inputs, outputs } = nodePorts(entry, defaultConfig(entry.config_schema));
  const required = inputs.filter((p) => !p.optional);
  const input = required.length === 1 ? required[0]! : null;
  if (!input || input.type === 'any' || !portsFit(from, input.type as PortType)) return false;
  return outputs.some((o: Port) => o.type !== 'any' && o.type !== from && portsFit(o.type as PortType, to));
}

/** How to make source → target fit, or null when nothing in the catalog does. */
export function connectionFix(c: ConnectionLike, nodes: FlowNode[], catalog: Record<string, CatalogEntry>): ConnectionFix | null {
  const source = nodes.find((n) => n.id === c.source);
  const out = portOf(source, catalog, 'outputs', c.sourceHandle);
  const inp = portOf(
    nodes.find((n) => n.id === c.target),
    catalog,
    'inputs',
    c.targetHandle,
  );
  if (!source || !out || !inp || portsFit(out.type as PortType, inp.type as PortType)) return null;
  const fieldsTrigger = out.type === 'trigger-event' && declaresFields(catalog[source.data.nodeType]);
  // what a person sends a run is text or JSON; a parsed HL7 v2 message or X12 interchange comes from a parser
  if (fieldsTrigger && !PARSED.has(inp.type)) {
    const fields = (source.data.config.fields ?? {}) as Record<string, unknown>;
    // a field of that name and type already there is used again (outputs feed any number of inputs)
    const field = fields[inp.name] === inp.type ? inp.name : fieldName(fields, inp.name);
    return { kind: 'trigger-field', field, type: inp.type as PortType };
  }
  // from such a trigger, the converter takes a text field it gains (connect adds it)
  const from = (fieldsTrigger ? 'text' : out.type) as PortType;
  const types = Object.values(catalog).filter((e) => converts(e, from, inp.type as PortType));
  return types.length ? { kind: 'converter', types, from, to: inp.type } : null;
}

/** The ports a converter node is connected by: its one required input, and its first output that fits `to`. */
export function converterPorts(entry: CatalogEntry, to: string): { input: string; output: string } | null {
  const { inputs, outputs } = nodePorts(entry, defaultConfig(entry.config_schema));
  const input = inputs.find((p) => !p.optional);
  const output = outputs.find((o) => o.type !== 'any' && portsFit(o.type as PortType, to as PortType));
  return input && output ? { input: input.name, output: output.name } : null;
}

/**
 * Why a connection would be refused as it is drawn, or null: what `connectionProblem` finds, except a trigger
 * meeting a typed input, which connecting fixes (the trigger gains the field).
 */
export function refusal(c: ConnectionLike, nodes: FlowNode[], edges: FlowEdge[], catalog: Record<string, CatalogEntry>): string | null {
  const problem = connectionProblem(c, nodes, edges, catalog);
  if (!problem) return null;
  const taken = edges.some((e) => e.target === c.target && e.targetHandle === c.targetHandle);
  return !taken && connectionFix(c, nodes, catalog)?.kind === 'trigger-field' ? null : problem;
}
