import type { ServiceContext } from '../context';
import { findPipelineRow } from './find';
import { toPipeline, type Pipeline } from './pipeline-views';

export async function getPipeline(ctx: ServiceContext, id: string): Promise<Pipeline> {
  return toPipeline(await findPipelineRow(ctx, id));
}
