import { describe, expect, it } from 'vitest';
import { runPipeline } from './run';
import { n, noServices, pipeline, registry, sent } from '../../tests/support/engine/builders';

describe('idempotency keys of a retried run', () => {
  // in ──▶ w(write)
  const def = pipeline([n('in', 'manual-trigger'), n('w', 'write')], 'in>w');
  const run = (executionId: string, idempotencyId?: string) =>
    runPipeline(def, { executionId, idempotencyId, inputs: { mrn: '7' }, testMode: false, registry, services: noServices });

  it('are the execution’s own, or those of the run it retries when given', async () => {
    sent.length = 0;
    await run('first-run');
    await run('its-retry', 'first-run');
    await run('another-run');
    expect(sent.map((s) => (s as { key: string }).key)).toEqual(['first-run:w', 'first-run:w', 'another-run:w']);
  });
});
