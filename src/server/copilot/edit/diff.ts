import type { PipelineConnection, PipelineDefinition } from '@/shared/pipeline';

/** What an edit did to a definition, by node id: what the canvas marks when it previews the change. */
export interface DefinitionDiff {
  added: string[];
  removed: string[];
  /** Nodes in both whose connections changed. */
  rewired: string[];
  /** Nodes in both whose type, config or settings changed. */
  changed: string[];
  connections: { added: PipelineConnection[]; removed: PipelineConnection[] };
}

const key = (c: PipelineConnection) => `${c.source}.${c.source_port}>${c.target}.${c.target_port}`;

export function diffDefinitions(before: PipelineDefinition, after: PipelineDefinition): DefinitionDiff {
  const had = new Map(before.nodes.map((n) => [n.id, n]));
  const has = new Map(after.nodes.map((n) => [n.id, n]));
  const beforeKeys = new Set(before.connections.map(key));
  const afterKeys = new Set(after.connections.map(key));
  const addedC = after.connections.filter((c) => !beforeKeys.has(key(c)));
  const removedC = before.connections.filter((c) => !afterKeys.has(key(c)));
  const touched = new Set([...addedC, ...removedC].flatMap((c) => [c.source, c.target]));
  const both = [...has.keys()].filter((id) => had.has(id));
  return {
    added: [...has.keys()].filter((id) => !had.has(id)),
    removed: [...had.keys()].filter((id) => !has.has(id)),
    rewired: both.filter((id) => touched.has(id)),
    changed: both.filter((id) => {
      const a = had.get(id)!;
      const b = has.get(id)!;
      return (
        a.type !== b.type || JSON.stringify(a.config) !== JSON.stringify(b.config) || JSON.stringify(a.settings ?? null) !== JSON.stringify(b.settings ?? null)
      );
    }),
    connections: { added: addedC, removed: removedC },
  };
}
