import { describe, expect, it } from 'vitest';
import { triggerTextFields } from './run-dialog';
import { triggerInfoKind } from './trigger-info';

const nodes = (type: string, config: Record<string, unknown> = {}) => [
  { data: { nodeType: type, config } },
  { data: { nodeType: 'pipeline-output', config: {} } },
];

describe("what the editor shows for a pipeline's trigger, as its descriptor says", () => {
  it('offers a message box for each text input the trigger takes', () => {
    expect(triggerTextFields(nodes('manual-trigger', { fields: { message: 'text', patient: 'fhir-resource', note: 'text' } }))).toEqual(['message', 'note']);
    expect(triggerTextFields(nodes('mllp-listener-trigger', { port: 2575 }))).toEqual(['message']);
    expect(triggerTextFields(nodes('webhook-trigger'))).toEqual([]);
    expect(triggerTextFields(nodes('manual-trigger', { fields: { message: 'no-such-type' } }))).toEqual([]);
  });

  it('shows the webhook URL or the schedule for the triggers that wait for those, and nothing for other nodes', () => {
    expect(['webhook-trigger', 'schedule-trigger', 'mllp-listener-trigger', 'manual-trigger', 'filter', 'no-such-node'].map(triggerInfoKind)).toEqual([
      'webhook',
      'schedule',
      null,
      null,
      null,
      null,
    ]);
  });
});
