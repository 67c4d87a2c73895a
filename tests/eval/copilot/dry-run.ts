import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getNodeType } from '@/engine/nodes';
import { getNodeDescriptor } from '@/engine/nodes/descriptors';
import { runPipeline } from '@/engine/run';
import { testServices } from '../../support/engine/node-context';
import { languageModel } from '@/server/services/executions/node-services';
import type { PipelineConnection, PipelineNode } from '@/shared/pipeline';
import type { EvalSample } from './requests';

/** Where the shared sample data is: ../shared/data beside the checkout, or SAMPLE_DATA_DIR. */
export const SAMPLE_DATA = process.env.SAMPLE_DATA_DIR ?? path.resolve(import.meta.dirname, '../../../../shared/data');

export type DryRunStatus = 'ok' | 'failed' | 'needs-connector' | 'needs-agent';

export interface DryRun {
  status: DryRunStatus;
  /** Why it failed, or what it needs. */
  detail?: string;
  outputs?: Record<string, unknown>;
}

const CONNECTOR_CODES = new Set(['CONNECTOR_REQUIRED', 'CONNECTOR_NOT_FOUND', 'CONNECTOR_TYPE_MISMATCH']);
const AGENT_CODES = new Set(['AGENT_REQUIRED', 'AGENT_NOT_FOUND', 'AGENT_NOT_DEPLOYED', 'AGENT_INACTIVE']);

/** A sample as the value a trigger receives: the text of a file, or resources of an NDJSON file. */
export function sampleValue(sample: EvalSample): unknown {
  if ('text' in sample) return sample.text;
  if ('file' in sample) return readFileSync(path.join(SAMPLE_DATA, sample.file), 'utf8');
  const lines = readFileSync(path.join(SAMPLE_DATA, sample.ndjson), 'utf8').split('\n').filter(Boolean);
  const resources = lines.slice(0, sample.take ?? 1).map((l) => JSON.parse(l) as { resourceType: string; id?: string });
  if (sample.as === 'resource') return resources[0];
  if (sample.as === 'list') return resources;
  return {
    resourceType: 'Bundle',
    type: sample.as,
    entry: resources.map((r) => ({
      fullUrl: `urn:uuid:${r.id}`,
      resource: r,
      ...(sample.as === 'transaction' ? { request: { method: 'POST', url: r.resourceType } } : {}),
    })),
  };
}

/** The execution inputs that give the sample to the plan's trigger. */
function inputsFor(nodes: PipelineNode[], value: unknown): Record<string, unknown> {
  const trigger = nodes.find((n) => getNodeDescriptor(n.type)?.trigger);
  switch (trigger?.type) {
    case 'mllp-listener-trigger':
      return { message: value };
    case 'webhook-trigger':
      return { body: value, headers: { 'content-type': typeof value === 'string' ? 'text/plain' : 'application/json' }, query: {} };
    case 'manual-trigger': {
      const fields = Object.keys((trigger.config.fields as Record<string, string> | undefined) ?? {});
      return fields.length ? Object.fromEntries(fields.map((f) => [f, value])) : { input: value };
    }
    default:
      return {};
  }
}

/**
 * Runs a plan in test mode with the sample, on the engine itself: writes are simulated, language models are
 * the configured ones (clinflow/offline always). There are no connectors or agents here: a node that fails
 * only for want of one says so (`needs-connector`, `needs-agent`) rather than counting as a failure.
 */
export async function dryRun(
  pipeline: { nodes: PipelineNode[]; connections: PipelineConnection[] },
  sample: EvalSample | undefined,
  id: string,
): Promise<DryRun> {
  const value = sample ? sampleValue(sample) : undefined;
  const result = await runPipeline(pipeline, {
    executionId: `eval-${id}`,
    inputs: value === undefined ? {} : inputsFor(pipeline.nodes, value),
    testMode: true,
    registry: getNodeType,
    services: testServices({ languageModel }),
  });
  if (result.status === 'completed') return { status: 'ok', outputs: result.outputs };
  const code = result.error?.code ?? 'FAILED';
  const detail = `${result.error?.node_id ?? 'pipeline'}: ${code}: ${result.error?.message ?? ''}`.slice(0, 300);
  if (CONNECTOR_CODES.has(code)) return { status: 'needs-connector', detail };
  if (AGENT_CODES.has(code)) return { status: 'needs-agent', detail };
  return { status: 'failed', detail };
}
