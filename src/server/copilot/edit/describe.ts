import { getNodeDescriptor } from '@/engine/nodes/descriptors';
import type { PipelineDefinition } from '@/shared/pipeline';
import type { DefinitionDiff } from './diff';

const name = (def: PipelineDefinition, id: string) => {
  const n = def.nodes.find((x) => x.id === id);
  return n ? `${id} (${n.name ?? getNodeDescriptor(n.type)?.name ?? n.type})` : id;
};

/** A diff in words, one line a node: what was added (and what feeds it), removed, rewired, reconfigured. */
export function describeDiff(before: PipelineDefinition, after: PipelineDefinition, diff: DefinitionDiff): string[] {
  const lines: string[] = [];
  for (const id of diff.added) {
    const from = after.connections.filter((c) => c.target === id).map((c) => c.source);
    const to = after.connections.filter((c) => c.source === id).map((c) => c.target);
    lines.push(`added ${name(after, id)}${from.length ? ` after ${from.join(', ')}` : ''}${to.length ? `, feeding ${to.join(', ')}` : ''}`);
  }
  for (const id of diff.removed) lines.push(`removed ${name(before, id)}`);
  for (const id of diff.rewired.filter((x) => !diff.added.includes(x))) {
    const from = after.connections.filter((c) => c.target === id).map((c) => c.source);
    lines.push(`${name(after, id)} is now fed by ${from.join(', ') || 'nothing'}`);
  }
  for (const id of diff.changed) {
    const a = before.nodes.find((n) => n.id === id)!;
    const b = after.nodes.find((n) => n.id === id)!;
    const keys = [...new Set([...Object.keys(a.config), ...Object.keys(b.config)])].filter((k) => JSON.stringify(a.config[k]) !== JSON.stringify(b.config[k]));
    const settings = JSON.stringify(a.settings ?? null) !== JSON.stringify(b.settings ?? null) ? ['settings'] : [];
    lines.push(`${name(after, id)}: ${[...keys.map((k) => `${k} ${JSON.stringify(b.config[k])}`), ...settings].join(', ')}`);
  }
  return lines;
}
