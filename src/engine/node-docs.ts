import { z } from 'zod';
import { ENGINE_NODE_ERRORS, type NodeDescriptor, type PortSpec } from './node-descriptor';

/**
 * A node's documentation as the catalog and the editor show it: the descriptor's prose, then Ports,
 * Config and Errors sections generated from the descriptor itself, so they cannot drift from what the
 * node does.
 */

const UNITS: Record<string, string> = { ms: '(ms)', mb: '(MB)', kb: '(KB)', url: 'URL', id: 'ID', ids: 'IDs', json: 'JSON', fhir: 'FHIR', hl7: 'HL7' };

/** A field name in words, for a form label: `skip_empty_lines` → "Skip empty lines", `timeout_ms` → "Timeout (ms)". */
export function fieldTitle(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((w) => UNITS[w.toLowerCase()] ?? w.toLowerCase());
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The node's config as JSON Schema, with its UI hints (titles, widgets as `x-widget`, field order as
 * `x-order`); a field without a title gets its name in words.
 */
export function configSchema(d: NodeDescriptor): Record<string, unknown> {
  const schema = z.toJSONSchema(d.config, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const [name, p] of Object.entries(properties)) p.title ??= fieldTitle(name);
  for (const [name, hint] of Object.entries(d.ui?.fields ?? {})) {
    const p = properties[name];
    if (!p) continue;
    if (hint.title) p.title = hint.title;
    if (hint.widget) p['x-widget'] = hint.widget;
    if (hint.placeholder) p['x-placeholder'] = hint.placeholder;
    if (hint.connectorType) p['x-connector-type'] = hint.connectorType;
  }
  if (d.ui?.order) schema['x-order'] = d.ui.order;
  return schema;
}

/** Ports for the node's default config, or its example when `{}` is not a valid config. */
export function catalogPorts(d: NodeDescriptor): { inputs: PortSpec[]; outputs: PortSpec[] } {
  const defaults = d.config.safeParse({});
  const config = defaults.success ? defaults : d.config.safeParse(d.example);
  return config.success ? d.ports(config.data) : { inputs: [], outputs: [] };
}

function portLine(direction: 'in' | 'out', p: PortSpec): string {
  const optional = p.optional ? ', optional' : '';
  return `- ${direction} \`${p.name}\` (${p.type}${optional})${p.description ? `: ${p.description}` : ''}`;
}

function typeOf(p: Record<string, unknown>): string {
  if (Array.isArray(p.enum)) return p.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (typeof p.type === 'string') return p.type === 'integer' ? 'integer' : p.type;
  if (Array.isArray(p.anyOf)) return 'one of several shapes';
  return 'any';
}

function range(p: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof p.minimum === 'number' && typeof p.maximum === 'number') parts.push(`${p.minimum} to ${p.maximum}`);
  else if (typeof p.minimum === 'number') parts.push(`at least ${p.minimum}`);
  else if (typeof p.maximum === 'number') parts.push(`at most ${p.maximum}`);
  if (typeof p.maxItems === 'number') parts.push(`${p.minItems ?? 0} to ${p.maxItems} items`);
  return parts.join(', ');
}

function configLines(d: NodeDescriptor): string[] {
  const schema = configSchema(d);
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const names = Object.keys(properties);
  if (names.length === 0) return ['None.'];
  return names.map((name) => {
    const p = properties[name]!;
    const facts = [typeOf(p), range(p), 'default' in p ? `default \`${JSON.stringify(p.default)}\`` : required.has(name) ? 'required' : 'optional']
      .filter(Boolean)
      .join(', ');
    return `- \`${name}\` (${facts})${p.description ? `: ${p.description}` : ''}`;
  });
}

export function nodeDocumentation(d: NodeDescriptor): string {
  const ports = catalogPorts(d);
  const portLines = [...ports.inputs.map((p) => portLine('in', p)), ...ports.outputs.map((p) => portLine('out', p))];
  const errors = Object.entries(d.errors);
  const sections = [
    d.documentation.trim(),
    ['**Ports**', ...(portLines.length ? portLines : ['None.']), ...(d.portsNote ? ['', d.portsNote] : [])].join('\n'),
    ['**Config**', ...configLines(d)].join('\n'),
    ['**Example config**', '```json', JSON.stringify(d.example, null, 2), '```'].join('\n'),
    [
      '**Errors**',
      ...(errors.length ? errors.map(([code, when]) => `- \`${code}\`: ${when}`) : ['This node has no failures of its own.']),
      `Any node may also fail with ${Object.keys(ENGINE_NODE_ERRORS)
        .map((c) => `\`${c}\``)
        .join(', ')}.`,
    ].join('\n'),
  ];
  return sections.join('\n\n');
}

/**
 * A node in a few lines, for a language model's prompt (the copilot's LLM planner): what it does, its ports
 * with their types, its config fields and an example config. The same facts as the documentation, without
 * the prose.
 */
export function nodeBrief(d: NodeDescriptor): string {
  const ports = catalogPorts(d);
  return [
    `### ${d.id} (${d.category}${d.trigger ? ', trigger' : ''}${d.side_effect === 'write' ? ', writes' : ''})`,
    d.description,
    'Ports:',
    ...(ports.inputs.length || ports.outputs.length
      ? [...ports.inputs.map((p) => portLine('in', p)), ...ports.outputs.map((p) => portLine('out', p))]
      : ['None.']),
    ...(d.portsNote ? [d.portsNote] : []),
    'Config:',
    ...configLines(d),
    `Example config: ${JSON.stringify(d.example)}`,
  ].join('\n');
}
