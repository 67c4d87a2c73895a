import { triggerInputs } from '@/engine/graph';
import { AppError } from '@/server/errors';
import type { ServiceContext } from '../context';
import { currentPipeline, refuseInvalid } from './runnable-pipeline';
import { startExecution } from './start-execution';

export interface WebhookCall {
  pipelineId: string;
  body: unknown;
  headers: Record<string, string>;
  query: Record<string, string>;
}

/**
 * A call to a pipeline's webhook URL: starts an execution of the deployed pipeline with inputs
 * its webhook trigger makes of the call (`{body, headers, query}`) on the queue and answers at once (the caller polls, or does not care).
 */
export async function receiveWebhook(ctx: ServiceContext, call: WebhookCall) {
  const pipeline = await currentPipeline(ctx, call.pipelineId);
  const inputs = triggerInputs(pipeline.graph, { kind: 'webhook', body: call.body, headers: call.headers, query: call.query });
  if (!inputs) throw new AppError('WEBHOOK_NOT_ENABLED', `Pipeline ${pipeline.id} is not started by a webhook trigger.`);
  if (pipeline.status !== 'deployed') {
    throw new AppError('PIPELINE_NOT_DEPLOYED', `Pipeline ${pipeline.id} is not deployed: its webhook accepts calls once it is.`);
  }
  refuseInvalid(pipeline);
  if (!ctx.queue) throw new AppError('INTERNAL', 'No queue is configured.');
  const started = await startExecution(
    ctx.db,
    {
      orgId: ctx.principal.orgId,
      pipelineId: pipeline.id,
      pipelineVersion: pipeline.version,
      trigger: 'webhook',
      testMode: false,
      inputs,
      status: 'queued',
    },
    ctx.queue.enqueue,
  );
  ctx.queue.wake();
  return { execution_id: started.id, status: 'running' as const };
}
