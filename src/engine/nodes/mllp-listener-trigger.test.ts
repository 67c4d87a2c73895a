import { describe, expect, it } from 'vitest';
import { buildGraph, triggerInputs } from '../graph';
import type { MllpListenOptions, TriggerHost } from '../node-type';
import { failure, runNode, testContext } from '../../../tests/support/engine/node-context';
import { mllpListenerTriggerNode as trigger } from './mllp-listener-trigger.execute';

const MESSAGE = 'MSH|^~\\&|LAB|GHH|EHR|GHR|20240105083000||ADT^A08^ADT_A01|CTRL-7|P|2.5.1\rPID|1||PATID77^^^GHH^MR||DOE^JANE||19800101|F';

/** A host that records what the trigger asks of it. */
function recordingHost() {
  const calls: { op: string; options?: MllpListenOptions }[] = [];
  const host: TriggerHost = {
    schedule: async () => void calls.push({ op: 'schedule' }),
    unschedule: async () => void calls.push({ op: 'unschedule' }),
    listen: async (_t, options) => void calls.push({ op: 'listen', options }),
    unlisten: async () => void calls.push({ op: 'unlisten' }),
  };
  return { host, calls };
}

const target = { pipelineId: 'p1', orgId: 'o1' };

describe('mllp-listener-trigger', () => {
  it('fires the received text, the parsed message and the event', async () => {
    const inputs = { message: MESSAGE, remote_address: '10.1.2.3', received_at: '2025-01-06T02:00:00.000Z' };
    const r = await runNode(trigger, { port: 2575 }, {}, testContext({ executionInputs: inputs }));
    expect(r.outputs.message).toBe(MESSAGE);
    expect(r.outputs.parsed).toMatchObject({ message_type: 'ADT', trigger_event: 'A08', control_id: 'CTRL-7' });
    expect(r.outputs.event).toEqual(inputs);
  });

  it('makes an MLLP event into those inputs, and a test run without a message gets a sample ADT', async () => {
    const def = { nodes: [{ id: 'in', type: 'mllp-listener-trigger', config: { port: 2575 }, position: { x: 0, y: 0 } }], connections: [] };
    const graph = buildGraph(def, (id) => (id === trigger.id ? trigger : undefined));
    expect(triggerInputs(graph, { kind: 'mllp', message: MESSAGE, remoteAddress: '10.1.2.3', receivedAt: '2025-01-06T02:00:00.000Z' })).toEqual({
      message: MESSAGE,
      remote_address: '10.1.2.3',
      received_at: '2025-01-06T02:00:00.000Z',
    });
    const r = await runNode(trigger, {}, {});
    expect(r.outputs.parsed).toMatchObject({ message_type: 'ADT', trigger_event: 'A01' });
    expect((await failure(runNode(trigger, {}, {}, testContext({ executionInputs: { message: 'hello' } })))).code).toBe('HL7_INVALID');
  });

  it('listens on deploy with its settings, stops on undeploy, and cannot be deployed without a port', async () => {
    const { host, calls } = recordingHost();
    await trigger.activate!(
      host,
      target,
      trigger.config.parse({ port: 2575, ack_mode: 'completed', order: 'patient', allowed_senders: ['10.20.0.0/16', '192.168.1.7'] }),
    );
    await trigger.deactivate!(host, target);
    expect(calls).toEqual([
      { op: 'listen', options: { port: 2575, encoding: 'utf8', ack_mode: 'completed', order: 'patient', allowed_senders: ['10.20.0.0/16', '192.168.1.7'] } },
      { op: 'unlisten' },
    ]);
    expect((await failure(trigger.activate!(host, target, trigger.config.parse({})))).code).toBe('MLLP_PORT_REQUIRED');
  });

  it('accepts only addresses and CIDR ranges as senders', () => {
    expect(trigger.config.safeParse({ allowed_senders: ['10.0.0.0/8', 'fd00::/8', '::1'] }).success).toBe(true);
    expect(trigger.config.safeParse({ allowed_senders: ['lab.hospital.org'] }).success).toBe(false);
    expect(trigger.config.safeParse({ port: 70000 }).success).toBe(false);
  });
});
