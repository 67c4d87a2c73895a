import { randomUUID } from 'node:crypto';
import { getNodeType } from '@/engine/nodes';
import { runPipeline } from '@/engine/run';
import type { PipelineDefinition } from '@/shared/pipeline';
import type { ServiceContext } from '../context';

/**
 * Runs a copilot proposal in test mode on the organization's own services (writes simulated, the code sandbox's
 * fair share), within `limitMs`, without storing an execution: the copilot's dry runs.
 */
export function runUnstored(ctx: ServiceContext, def: PipelineDefinition, inputs: Record<string, unknown>, opts: { label: string; limitMs: number }) {
  return runPipeline(def, {
    executionId: `${opts.label}-${randomUUID()}`,
    inputs,
    testMode: true,
    registry: getNodeType,
    services: ctx.host.nodeServices(ctx.db, ctx.principal.orgId),
    signal: AbortSignal.timeout(opts.limitMs),
  });
}
