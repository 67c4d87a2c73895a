import { getNodeDescriptor } from '@/engine/nodes/descriptors';
import { isOutput } from '../planner/behaviors';
import type { PipelineDefinition } from '@/shared/pipeline';
import { portsFor } from '../planner/catalog';
import { flowText } from '../planner/flow';
import { EditGraph, isTrigger } from './graph';

interface Finding {
  node_id: string | null;
  message: string;
}

const title = (g: EditGraph, id: string) => {
  const n = g.node(id)!;
  return `**${id}** (${n.name ?? getNodeDescriptor(n.type)?.name ?? n.type})`;
};

/**
 * What a pipeline does with what comes in, node by node in the order the data reaches them, from the node
 * descriptors: how it starts, what each step does (its catalog description), what it takes and gives (the value
 * as it flows there), where its outputs go, and what the pipeline returns or writes.
 */
export function explainFlow(def: PipelineDefinition): string {
  const g = new EditGraph(def);
  const flows = g.flows();
  const lines: string[] = [];
  const trigger = g.trigger;
  if (!trigger) return 'It has no trigger, so nothing starts it yet: add one (manual, webhook, schedule or MLLP listener).';
  const d = getNodeDescriptor(trigger.type)!;
  const gives = g.outgoing(trigger.id).map((c) => `${flowText(flows.get(`${trigger.id}.${c.source_port}`)!)} to ${c.target}`);
  lines.push(`It starts at ${title(g, trigger.id)}: ${d.description}${gives.length ? ` It passes ${[...new Set(gives)].join(', ')}.` : ''}`);
  let step = 0;
  for (const id of g.order()) {
    const n = g.node(id)!;
    if (isTrigger(n.type)) continue;
    const desc = getNodeDescriptor(n.type);
    const into = g
      .incoming(id)
      .map(
        (c) =>
          `${flowText(flows.get(`${c.source}.${c.source_port}`) ?? { type: g.outputType(c.source, c.source_port) ?? 'any', kind: 'json' })} from ${c.source}`,
      );
    if (isOutput(n.type)) {
      lines.push(
        `${++step}. ${title(g, id)} returns ${into.join(' and ') || 'nothing (no input is connected)'} as the output "${String(n.config.key ?? id)}".`,
      );
      continue;
    }
    const outs = portsFor(n.type, n.config)
      .outputs.map((p) => {
        const to = g.outgoing(id, p.name).map((c) => c.target);
        return to.length ? `${p.name} → ${to.join(', ')}` : null;
      })
      .filter(Boolean);
    const writes =
      desc?.side_effect === 'write'
        ? ` It writes to an outside system` +
          `${typeof n.config.connector === 'string' && n.config.connector ? ` (connector "${n.config.connector}")` : ''}; test runs only simulate it.`
        : '';
    lines.push(
      `${++step}. ${title(g, id)} takes ${into.join(' and ') || 'nothing yet (its input is not connected)'}. ` +
        `${desc?.description ?? `Unknown node type ${n.type}.`}${outs.length ? ` Then: ${outs.join('; ')}.` : ''}${writes}`,
    );
  }
  return lines.join('\n');
}

/**
 * Why the validator accepts (or refuses) a pipeline, in the terms it checks: the trigger, each connection's port
 * types, the required inputs, the configs against their schemas, and what the copilot's checks still warn about.
 */
export function explainValidity(def: PipelineDefinition, report: { valid: boolean; errors: Finding[]; warnings: Finding[] }): string {
  const g = new EditGraph(def);
  const lines: string[] = [];
  if (!report.valid) {
    lines.push(`It is not valid: ${report.errors.length} problem${report.errors.length === 1 ? '' : 's'} to fix.`);
    for (const e of report.errors) lines.push(`- ${e.node_id ? `${e.node_id}: ` : ''}${e.message}`);
  } else {
    const trigger = g.trigger!;
    lines.push(`It is valid, because every check of the validator passes:`);
    lines.push(`- One trigger starts it: ${trigger.id} (${trigger.type}), and every other node is reached from it.`);
    const fits = def.connections.map(
      (c) => `${c.source}.${c.source_port} (${g.outputType(c.source, c.source_port)}) → ${c.target}.${c.target_port} (${g.inputType(c.target, c.target_port)})`,
    );
    lines.push(`- Every connection fits by port types (the source's type is the target's, a kind of it, or \`any\`): ${fits.join('; ')}.`);
    const required = def.nodes.flatMap((n) =>
      portsFor(n.type, n.config)
        .inputs.filter((p) => !p.optional)
        .map((p) => `${n.id}.${p.name}`),
    );
    lines.push(`- Every required input is connected${required.length ? ` (${required.join(', ')})` : ''}, and there is no cycle.`);
    lines.push(
      `- Each node's config matches its type's schema (${def.nodes
        .map((n) => n.type)
        .filter((t, i, a) => a.indexOf(t) === i)
        .join(', ')}).`,
    );
  }
  if (report.warnings.length) {
    lines.push(`Still worth a look (${report.warnings.length} warning${report.warnings.length === 1 ? '' : 's'}):`);
    for (const w of report.warnings) lines.push(`- ${w.node_id ? `${w.node_id}: ` : ''}${w.message}`);
  }
  return lines.join('\n');
}
