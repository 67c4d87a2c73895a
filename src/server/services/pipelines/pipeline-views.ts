import type { pipelines, pipelineVersions } from '@/server/db/schema';
import type { PipelineDefinition } from '@/shared/pipeline';

type Row = typeof pipelines.$inferSelect;
type VersionRow = typeof pipelineVersions.$inferSelect;

export interface PipelineSummary {
  id: string;
  name: string;
  description: string;
  status: 'active' | 'deployed';
  version: number;
  node_count: number;
  deployed_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface Pipeline extends PipelineSummary {
  definition: PipelineDefinition;
}

export function toSummary(row: Omit<Row, 'definition' | 'orgId'> & { nodeCount: number }): PipelineSummary {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status,
    version: row.version,
    node_count: row.nodeCount,
    deployed_at: row.deployedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function toPipeline(row: Row): Pipeline {
  return { ...toSummary({ ...row, nodeCount: row.definition.nodes.length }), definition: row.definition };
}

export function toVersion(row: VersionRow) {
  return {
    pipeline_id: row.pipelineId,
    version: row.version,
    name: row.name,
    description: row.description,
    definition: row.definition,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
  };
}
