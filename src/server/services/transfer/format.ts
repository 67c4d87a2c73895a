import type { DataSettingsOverride } from '@/shared/data-settings';
import type { PipelineDefinition } from '@/shared/pipeline';
import { connectorTypeOf } from '@/engine/nodes/descriptors';

/** The name of the export format, and its current version (docs/pipeline-export.md says what each version holds). */
export const FORMAT = 'clinflow-pipelines';
export const FORMAT_VERSION = 1;

/** A connector a pipeline uses, by name and type: never its id, settings or credentials. */
export interface ConnectorNeed {
  name: string;
  type: string;
}

export interface ExportedPipeline {
  name: string;
  description: string;
  /** The version it was exported at (the importing side starts at version 1). */
  version: number;
  definition: PipelineDefinition;
  /** Its own data settings (policy, retention), those it does not inherit. */
  data_settings: DataSettingsOverride;
  connectors: ConnectorNeed[];
}

export interface ExportDocument {
  format: typeof FORMAT;
  format_version: number;
  exported_at: string;
  pipelines: ExportedPipeline[];
}

/** Each node that uses a connector, with its reference (config.connector: an id or a name) and the type it takes. */
export function connectorRefs(definition: PipelineDefinition): { nodeId: string; ref: string; type: string }[] {
  const out: { nodeId: string; ref: string; type: string }[] = [];
  for (const node of definition.nodes) {
    const type = connectorTypeOf(node.type);
    const ref = (node.config as Record<string, unknown> | undefined)?.connector;
    if (type && typeof ref === 'string' && ref.trim()) out.push({ nodeId: node.id, ref: ref.trim(), type });
  }
  return out;
}

/** The definition with each node's connector reference replaced as `rename` says (others kept). */
export function renameConnectors(definition: PipelineDefinition, rename: (ref: string, type: string) => string): PipelineDefinition {
  return {
    ...definition,
    nodes: definition.nodes.map((node) => {
      const type = connectorTypeOf(node.type);
      const config = node.config as Record<string, unknown> | undefined;
      const ref = config?.connector;
      if (!type || typeof ref !== 'string' || !ref.trim()) return node;
      return { ...node, config: { ...config, connector: rename(ref.trim(), type) } };
    }),
  };
}

/**
 * A document of any version this Clinflow reads, as the current version's shape (still unchecked in detail: the
 * importer validates each pipeline like a save). Version 0 is what Clinflow offered before the format: the JSON of
 * GET /api/pipelines/{id} (one, or an array of them) — its connectors are the references its nodes name.
 * Undefined: not a document this version can read; `newer` when it comes from a newer Clinflow.
 */
export function upgradeDocument(doc: unknown): { doc: ExportDocument } | { error: string } {
  if (Array.isArray(doc) || (isObject(doc) && doc.format === undefined && 'definition' in doc)) {
    const list = (Array.isArray(doc) ? doc : [doc]).filter(isObject);
    return {
      doc: {
        format: FORMAT,
        format_version: FORMAT_VERSION,
        exported_at: new Date().toISOString(),
        pipelines: list.map((p) => {
          const definition = (p.definition ?? { nodes: [], connections: [] }) as PipelineDefinition;
          const settings = isObject(p.metadata) && isObject(p.metadata.data_settings) ? p.metadata.data_settings.overrides : undefined;
          return {
            name: p.name as string,
            description: (p.description as string | undefined) ?? '',
            version: typeof p.version === 'number' ? p.version : 1,
            definition,
            data_settings: (isObject(settings) ? settings : {}) as DataSettingsOverride,
            connectors: uniqueNeeds(Array.isArray(definition.nodes) ? connectorRefs(definition).map((r) => ({ name: r.ref, type: r.type })) : []),
          };
        }),
      },
    };
  }
  if (!isObject(doc) || doc.format !== FORMAT) return { error: `Not a Clinflow pipeline export: "format" must be "${FORMAT}".` };
  const version = doc.format_version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) return { error: '"format_version" must be a whole number from 1.' };
  if (version > FORMAT_VERSION) {
    return { error: `This file is format version ${version}, from a newer Clinflow; this one reads versions up to ${FORMAT_VERSION}.` };
  }
  // checked by the format's schema above; its parsed type is wider than the document it proves
  return { doc: doc as unknown as ExportDocument };
}

export function uniqueNeeds(needs: ConnectorNeed[]): ConnectorNeed[] {
  const seen = new Map<string, ConnectorNeed>();
  for (const n of needs) seen.set(`${n.type}\u0000${n.name}`, n);
  return [...seen.values()];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
