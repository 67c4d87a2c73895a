import type { ServiceContext } from '../context';
import { findPipelineWithAuthors } from './find';
import { toPipelineWithMetadata, type PipelineWithMetadata } from './pipeline-views';

/** A pipeline with its definition and metadata (authors, counts, node types, deployed version, data settings). */
export async function getPipeline(ctx: ServiceContext, id: string): Promise<PipelineWithMetadata> {
  const { row, createdBy, updatedBy, orgSettings } = await findPipelineWithAuthors(ctx, id);
  return toPipelineWithMetadata(row, { createdBy, updatedBy }, orgSettings);
}
