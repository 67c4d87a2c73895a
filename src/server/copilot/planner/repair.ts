import { getNodeType } from '@/engine/nodes';
import { validateDefinition, type ValidationReport } from '@/engine/validate';
import type { PipelineConnection, PipelineNode } from '@/shared/pipeline';
import { descriptor } from './catalog';

export interface Definition {
  nodes: PipelineNode[];
  connections: PipelineConnection[];
}

export function validate(def: Definition): ValidationReport {
  return validateDefinition(def, getNodeType);
}

/** "valid", with the count and codes of the report's warnings when it has any. */
export function validText(warnings: ValidationReport['warnings']): string {
  return `valid${warnings.length ? ` (${warnings.length} warning${warnings.length > 1 ? 's' : ''}: ${warnings.map((w) => w.code).join(', ')})` : ''}`;
}

/**
 * Checks the plan with the engine's validator and repairs what it can, saying so: a config that does not
 * parse goes back to the node's defaults (or its example); a node that still cannot stand (unknown, or an
 * input nothing feeds) is dropped with its connections, and what depended on it follows on the next
 * round. Gives the report of the last check.
 */
export function repair(def: Definition, reasoning: string[], unresolved: string[]): { def: Definition; report: ValidationReport } {
  let report = validate(def);
  const reset = new Set<string>();
  for (let round = 0; round < 6 && !report.valid; round++) {
    const drop = new Set<string>();
    for (const e of report.errors) {
      const node = def.nodes.find((n) => n.id === e.node_id);
      if (!node) continue;
      if (e.code === 'INVALID_CONFIG' && !reset.has(node.id)) {
        reset.add(node.id);
        const d = descriptor(node.type);
        node.config = d.config.safeParse({}).success ? {} : { ...(d.example as Record<string, unknown>) };
        unresolved.push(
          [
            `${node.id} (${node.type}): ${e.message}; its config went back to`,
            `${Object.keys(node.config).length ? 'the catalog example' : 'the defaults'}: set it by hand`,
          ].join(' '),
        );
        reasoning.push(`Repair: ${node.id} had an invalid config (${e.message}); reset it.`);
      } else if (!descriptor(node.type).trigger) {
        drop.add(node.id);
      }
    }
    if (drop.size) {
      for (const id of drop) {
        const node = def.nodes.find((n) => n.id === id)!;
        const why = report.errors.find((e) => e.node_id === id)!;
        unresolved.push(`${id} (${node.type}) was left out: ${why.message}`);
        reasoning.push(`Repair: dropped ${id} (${why.code}).`);
      }
      def = { nodes: def.nodes.filter((n) => !drop.has(n.id)), connections: def.connections.filter((c) => !drop.has(c.source) && !drop.has(c.target)) };
    } else if (report.errors.every((e) => !e.node_id || !def.nodes.some((n) => n.id === e.node_id))) {
      break;
    }
    report = validate(def);
  }
  return { def, report };
}
