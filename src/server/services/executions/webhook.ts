import { triggerInputs } from '@/engine/graph';
import { AppError } from '@/server/errors';
import type { ServiceContext } from '../context';
import { refuseInvalid } from './runnable-pipeline';
import { startOnCurrent } from './start-on-current';

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
  if (!ctx.queue) throw new AppError('INTERNAL', 'No queue is configured.');
  const made = { kind: 'webhook', body: call.body, headers: call.headers, query: call.query } as const;
  const { started } = await startOnCurrent(ctx, call.pipelineId, {
    requireDeployed: true,
    execution: (p) => {
      const inputs = triggerInputs(p.graph, made);
      return inputs
        ? { orgId: ctx.principal.orgId, pipelineId: p.id, pipelineVersion: p.version, trigger: 'webhook', testMode: false, inputs, status: 'queued' }
        : undefined;
    },
    refuse: (p) => {
      if (!triggerInputs(p.graph, made)) throw new AppError('WEBHOOK_NOT_ENABLED', `Pipeline ${p.id} is not started by a webhook trigger.`);
      if (p.status !== 'deployed') {
        throw new AppError('PIPELINE_NOT_DEPLOYED', `Pipeline ${p.id} is not deployed: its webhook accepts calls once it is.`);
      }
      refuseInvalid(p);
    },
    queue: ctx.queue,
  });
  return { execution_id: started.id, status: 'running' as const };
}
