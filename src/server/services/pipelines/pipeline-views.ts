import { maskHeaderSecrets } from './header-secrets';
import type { pipelines, pipelineVersions } from '@/server/db/schema';
import type { DataSettingsOverride } from '@/shared/data-settings';
import type { PipelineDefinition } from '@/shared/pipeline';
import { pipelineDataSettings, type DataSettingsView } from '../orgs/data-settings';

type Row = typeof pipelines.$inferSelect;
type VersionRow = typeof pipelineVersions.$inferSelect;

export interface PipelineSummary {
  id: string;
  name: string;
  description: string;
  status: 'active' | 'deployed';
  version: number;
  /** The version production runs use (deploy publishes one version); null while not deployed. */
  deployed_version: number | null;
  node_count: number;
  deployed_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface Pipeline extends PipelineSummary {
  definition: PipelineDefinition;
}

export function toSummary(row: Omit<Row, 'definition' | 'orgId' | 'dataSettings'> & { nodeCount: number }): PipelineSummary {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status,
    version: row.version,
    deployed_version: row.status === 'deployed' ? row.deployedVersion : null,
    node_count: row.nodeCount,
    deployed_at: row.deployedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function toPipeline(row: Row): Pipeline {
  return { ...toSummary({ ...row, nodeCount: row.definition.nodes.length }), definition: maskHeaderSecrets(row.definition) };
}

/** What the get operation adds ("the get operation also returns metadata", spec §2). */
export interface PipelineMetadata {
  /** Who created the pipeline: `user:<id>` or `api-key:<id>`; null when not recorded. */
  created_by: string | null;
  /** Who made its current version. */
  updated_by: string | null;
  created_at: string;
  updated_at: string;
  node_count: number;
  connection_count: number;
  /** The node types it uses, sorted, each once. */
  node_types: string[];
  /** The version that runs when triggered (the one deployed last; saves do not change it), or null. */
  deployed_version: number | null;
  deployed_at: string | null;
  /** What its runs keep and for how long: its own settings over its organization's (issue 27). */
  data_settings: DataSettingsView;
}

export interface PipelineWithMetadata extends Pipeline {
  metadata: PipelineMetadata;
}

export function toPipelineWithMetadata(
  row: Row,
  authors: { createdBy: string | null; updatedBy: string | null },
  orgSettings: DataSettingsOverride | null,
): PipelineWithMetadata {
  const pipeline = toPipeline(row);
  return {
    ...pipeline,
    metadata: {
      created_by: authors.createdBy,
      updated_by: authors.updatedBy,
      created_at: pipeline.created_at,
      updated_at: pipeline.updated_at,
      node_count: row.definition.nodes.length,
      connection_count: row.definition.connections.length,
      node_types: [...new Set(row.definition.nodes.map((n) => n.type))].sort(),
      deployed_version: pipeline.deployed_version,
      deployed_at: pipeline.deployed_at,
      data_settings: pipelineDataSettings(orgSettings, row.dataSettings),
    },
  };
}

export function toVersion(row: VersionRow) {
  return {
    pipeline_id: row.pipelineId,
    version: row.version,
    name: row.name,
    description: row.description,
    definition: maskHeaderSecrets(row.definition),
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
  };
}
