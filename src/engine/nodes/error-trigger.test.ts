import { describe, expect, it } from 'vitest';
import { buildGraph, triggerInputs } from '../graph';
import { getNodeType } from './index';
import { SAMPLE_ERROR_EVENT } from '@/shared/error-event';
import { runNode, testContext } from '../../../tests/support/engine/node-context';
import { errorTriggerNode as errorTrigger } from './error-trigger.execute';

/*
 * on_error (error-trigger) ──event: error-event──▶ (a send-email or http-request)
 */
describe('error-trigger', () => {
  it('is started by error events only, with the event as the execution inputs', () => {
    const config = errorTrigger.config.parse({});
    expect(errorTrigger.trigger?.events).toEqual(['error']);
    expect(errorTrigger.trigger?.toInputs({ kind: 'error', event: { ...SAMPLE_ERROR_EVENT } }, config)).toEqual(SAMPLE_ERROR_EVENT);
    expect(errorTrigger.ports(config).outputs.map((p) => [p.name, p.type])).toEqual([['event', 'error-event']]);
    const graph = buildGraph({ nodes: [{ id: 'on_error', type: 'error-trigger', config: {}, position: { x: 0, y: 0 } }], connections: [] }, getNodeType);
    expect(triggerInputs(graph, { kind: 'webhook', body: {}, headers: {}, query: {} })).toBeNull();
    expect(triggerInputs(graph, { kind: 'error', event: { ...SAMPLE_ERROR_EVENT } })).toEqual(SAMPLE_ERROR_EVENT);
  });

  it('emits the error event on its event port', async () => {
    const r = await runNode(errorTrigger, {}, {}, testContext({ executionInputs: { ...SAMPLE_ERROR_EVENT } }));
    expect(r.outputs).toEqual({ event: SAMPLE_ERROR_EVENT });
  });

  it('offers the sample event for a test run', () => {
    expect(errorTrigger.trigger?.sampleInputs({})).toEqual(SAMPLE_ERROR_EVENT);
  });
});
