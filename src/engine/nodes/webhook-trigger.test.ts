import { describe, expect, it } from 'vitest';
import { runNode, SYNTHEA_PATIENTS, testContext } from '../../../tests/support/engine/node-context';
import { webhookTriggerNode as webhookTrigger } from './webhook-trigger.execute';

describe('webhook-trigger', () => {
  it('is a trigger with event and body outputs and no config', () => {
    const config = webhookTrigger.config.parse({});
    expect(webhookTrigger.trigger?.events).toEqual(['webhook']);
    expect(webhookTrigger.trigger?.toInputs({ kind: 'webhook', body: 'MSH|…', headers: { 'content-type': 'text/plain' }, query: {} }, config)).toEqual({
      body: 'MSH|…',
      headers: { 'content-type': 'text/plain' },
      query: {},
    });
    expect(webhookTrigger.ports(config).inputs).toEqual([]);
    expect(webhookTrigger.ports(config).outputs.map((p) => [p.name, p.type])).toEqual([
      ['event', 'trigger-event'],
      ['body', 'json'],
    ]);
  });

  it('emits the whole request on event and the request body on body', async () => {
    const request = { body: SYNTHEA_PATIENTS[2], headers: { 'content-type': 'application/fhir+json', 'x-source': 'ehr' }, query: { facility: 'KS01' } };
    const r = await runNode(webhookTrigger, {}, {}, testContext({ executionInputs: request }));
    expect(r.outputs).toEqual({ event: request, body: SYNTHEA_PATIENTS[2] });
  });

  it('keeps a text body (an HL7 v2 message) as it came', async () => {
    const hl7 = 'MSH|^~\\&|LAB|HOSP|||202401011200||ORU^R01|1|P|2.5';
    const r = await runNode(webhookTrigger, {}, {}, testContext({ executionInputs: { body: hl7, headers: {}, query: {} } }));
    expect(r.outputs.body).toBe(hl7);
  });

  it('falls back to the whole inputs for body when there is none (a hand-written test run)', async () => {
    const inputs = { resourceType: 'Observation', status: 'final' };
    const r = await runNode(webhookTrigger, {}, {}, testContext({ executionInputs: inputs }));
    expect(r.outputs).toEqual({ event: inputs, body: inputs });
  });

  it('documents the per-pipeline URL', () => {
    expect(webhookTrigger.documentation).toContain('POST /api/webhooks/{pipelineId}');
  });
});
