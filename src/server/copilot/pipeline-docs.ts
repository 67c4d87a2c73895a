import { buildGraph, topologicalOrder } from '@/engine/graph';
import { getNodeType } from '@/engine/nodes';
import type { PipelineDefinition } from '@/shared/pipeline';
import type { Finding } from '@/engine/validate';

const code = (v: unknown) => `\`${typeof v === 'string' ? v : JSON.stringify(v)}\``.replace(/\n/g, ' ');
const SECRETISH = /authorization|cookie|api[-_]?key|token|secret|password/i;

/** The settings of a node worth reading in its documentation (secrets never shown, long values cut). */
function settings(config: Record<string, unknown>): string {
  const parts = Object.entries(config)
    .filter(([k, v]) => v !== undefined && v !== '' && !(typeof v === 'object' && v !== null && Object.keys(v).length === 0))
    .map(([k, v]) => {
      if (k === 'headers' && v && typeof v === 'object')
        return `headers: ${Object.keys(v)
          .map((h) => (SECRETISH.test(h) ? `${h}: ••••` : h))
          .join(', ')}`;
      const text = code(v);
      return `${k}: ${text.length > 120 ? `${text.slice(0, 117)}…\`` : text}`;
    });
  return parts.length ? parts.join('; ') : 'defaults';
}

/**
 * Markdown documentation of a pipeline from its definition and the catalog: what starts it, each step in the order
 * it runs (what the node does, its settings, where its output goes), what it writes to outside systems, and the
 * validator's and the copilot's findings. Deterministic; no model involved.
 */
export function pipelineDocs(
  p: { name: string; description?: string; version?: number; status?: string },
  def: PipelineDefinition,
  findings: { errors: Finding[]; warnings: Finding[] },
): string {
  const g = buildGraph(def, getNodeType);
  const { order } = topologicalOrder(g);
  const lines: string[] = [`# ${p.name}`, ''];
  if (p.description) lines.push(p.description, '');
  if (p.version !== undefined)
    lines.push(`Version ${p.version}${p.status ? `, ${p.status}` : ''}. ${def.nodes.length} nodes, ${def.connections.length} connections.`, '');
  const trigger = g.triggers.map((id) => g.nodes.get(id)!).find(Boolean);
  lines.push(
    '## How it starts',
    '',
    trigger?.type
      ? `**${trigger.def.name ?? trigger.type.name}** (\`${trigger.def.type}\`): ${trigger.type.description} Settings: ${settings(trigger.def.config)}.`
      : 'No trigger: it cannot run yet.',
    '',
  );
  lines.push('## Steps', '');
  let n = 0;
  for (const id of order) {
    const node = g.nodes.get(id)!;
    if (node.type?.trigger) continue;
    const t = node.type;
    const next = (g.outgoing.get(id) ?? []).map((c) => `\`${c.source_port}\` → ${c.target}`).join(', ');
    const what = t ? `${t.name} (\`${node.def.type}\`)` : `unknown type \`${node.def.type}\``;
    lines.push(`${++n}. **${id}** — ${what}${node.def.disabled ? ' — *disabled: passes its input through*' : ''}`);
    if (t) lines.push(`   ${t.description}`);
    lines.push(`   Settings: ${settings(node.def.config)}.${next ? ` Output: ${next}.` : ''}`);
  }
  const writes = [...g.nodes.values()].filter((x) => x.type?.side_effect === 'write');
  lines.push('', '## Writes to outside systems', '');
  if (!writes.length) lines.push('None: it reads and transforms only.');
  for (const w of writes)
    lines.push(
      `- **${w.def.id}** (${w.type!.name})${typeof w.def.config.connector === 'string' ? ` through the connector "${w.def.config.connector}"` : ''}; ` +
        `${w.settings.retry.max_attempts > 1 ? `up to ${w.settings.retry.max_attempts} attempts` : 'no retry'}. Test runs do not write.`,
    );
  lines.push('', '## Checks', '');
  if (!findings.errors.length && !findings.warnings.length) lines.push('The validator and the copilot found nothing to fix.');
  for (const f of findings.errors) lines.push(`- Error${f.node_id ? ` on **${f.node_id}**` : ''}: ${f.message}`);
  for (const f of findings.warnings) lines.push(`- Warning${f.node_id ? ` on **${f.node_id}**` : ''}: ${f.message}`);
  return `${lines.join('\n')}\n`;
}
