import fs from 'node:fs';
import { Hl7Message, Hl7Segment } from '@medplum/core';
import { Hl7Server, type Hl7Connection } from '@medplum/hl7';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMessage } from '@/clinical/hl7v2';
import { connectChecked } from '@/server/outbound/connect';
import { OutboundError } from '@/shared/outbound-error';
import { OutboundPolicy } from '@/server/outbound/policy';
import { NodeError } from '../node-error';
import type { ConnectorHandle, NodeServices } from '../node-type';
import { failure, runNode, testContext, testServices } from '../../../tests/support/engine/node-context';
import { hl7v2MllpSendNode as send } from './hl7v2-mllp-send.execute';

const ADT = fs.readFileSync('/work/shared/data/hl7v2/messages/ADT-A01-01.hl7', 'utf8');
const controlId = (text: string) => Hl7Message.parse(text).getSegment('MSH')!.getField(10).toString();

/** A receiving system on loopback: @medplum/hl7's MLLP server, answering each message with `answer`. */
async function receiver(answer: (message: Hl7Message, connection: Hl7Connection) => void) {
  const received: string[] = [];
  const server = new Hl7Server((connection) => {
    connection.addEventListener('message', ({ message }) => {
      received.push(message.toString());
      answer(message, connection);
    });
  });
  await server.start(0);
  const port = (server.server!.address() as { port: number }).port;
  return { server, port, received };
}

function connector(port: number, config: Record<string, unknown> = {}): ConnectorHandle {
  return {
    id: 'c1',
    name: 'lab-feed',
    type: 'hl7-mllp',
    endpoint: `127.0.0.1:${port}`,
    config: { host: '127.0.0.1', port, tls: false, encoding: 'utf-8', ...config },
    credentials: {},
    updatedAt: '2025-01-01T00:00:00Z',
  };
}

/** The services a run gets, with the outbound policy allowing loopback (as tests do with OUTBOUND_ALLOW). */
function services(handle: ConnectorHandle | null): NodeServices {
  const policy = OutboundPolicy.fromEntries(['loopback']);
  return testServices({
    connector: async (ref, type) => {
      if (!handle || ref !== handle.name) throw new NodeError('CONNECTOR_NOT_FOUND', `No connector "${ref}"`);
      expect(type).toBe('hl7-mllp');
      return handle;
    },
    connect: async ({ host, port }) => {
      try {
        return await connectChecked({ host, port, policy, timeoutMs: 2000 });
      } catch (e) {
        throw e instanceof OutboundError ? new NodeError(e.code, e.message) : e;
      }
    },
  });
}

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

describe('hl7v2-mllp-send', () => {
  it('sends the message and returns the AA it got back', async () => {
    const peer = await receiver((m, c) => c.send(m.buildAck({ ackCode: 'AA' })));
    stop = () => peer.server.stop({ forceDrainTimeoutMs: 0 });
    const r = await runNode(send, { connector: 'lab-feed' }, { message: ADT }, testContext({ services: services(connector(peer.port)) }));
    expect(peer.received).toHaveLength(1);
    expect(controlId(peer.received[0]!)).toBe(controlId(ADT));
    const ack = r.outputs.ack as { message_type: string; segments: { id: string; fields: string[] }[] };
    expect(ack.message_type).toBe('ACK');
    const msa = ack.segments.find((s) => s.id === 'MSA')!;
    expect(msa.fields.slice(1, 3)).toEqual(['AA', controlId(ADT)]);
  });

  it('fails with HL7_NAK carrying MSA-3 and the ERR text on AE', async () => {
    const peer = await receiver((m, c) => {
      const ack = m.buildAck({ ackCode: 'AE' });
      ack.getSegment('MSA')!.setField(3, 'Unknown patient');
      ack.segments.push(Hl7Segment.parse('ERR||PID^1^3|204^Unknown key identifier^HL70357|E||||Patient PATID1234 is not registered', ack.context));
      c.send(ack);
    });
    stop = () => peer.server.stop({ forceDrainTimeoutMs: 0 });
    const e = await failure(runNode(send, { connector: 'lab-feed' }, { message: ADT }, testContext({ services: services(connector(peer.port)) })));
    expect(e.code).toBe('HL7_NAK');
    expect(e.message).toContain('AE');
    expect(e.message).toContain('Unknown patient');
    expect(e.message).toContain('Patient PATID1234 is not registered');
  });

  it('fails with HL7_ACK_TIMEOUT when no ACK comes', async () => {
    const peer = await receiver(() => {});
    stop = () => peer.server.stop({ forceDrainTimeoutMs: 0 });
    const e = await failure(
      runNode(send, { connector: 'lab-feed', ack_timeout_ms: 300 }, { message: ADT }, testContext({ services: services(connector(peer.port)) })),
    );
    expect(e.code).toBe('HL7_ACK_TIMEOUT');
    expect(peer.received).toHaveLength(1);
  });

  it('takes an hl7v2-message value as well as text', async () => {
    const peer = await receiver((m, c) => c.send(m.buildAck({ ackCode: 'AA' })));
    stop = () => peer.server.stop({ forceDrainTimeoutMs: 0 });
    await runNode(send, { connector: 'lab-feed' }, { message: parseMessage(ADT) }, testContext({ services: services(connector(peer.port)) }));
    expect(controlId(peer.received[0]!)).toBe(controlId(ADT));
  });

  it('in test mode connects to nothing and returns what it would send', async () => {
    const peer = await receiver((m, c) => c.send(m.buildAck({ ackCode: 'AA' })));
    stop = () => peer.server.stop({ forceDrainTimeoutMs: 0 });
    const r = await runNode(send, { connector: 'lab-feed' }, { message: ADT }, testContext({ testMode: true, services: services(connector(peer.port)) }));
    expect(r.simulated).toBe(true);
    expect(r.outputs.ack).toMatchObject({ simulated: true, connector: 'lab-feed', endpoint: `127.0.0.1:${peer.port}` });
    expect(controlId((r.outputs.ack as { message: string }).message)).toBe(controlId(ADT));
    expect(peer.received).toHaveLength(0);
  });

  it('says what to set when dropped with its default config, and refuses what is not HL7 v2', async () => {
    expect((await failure(runNode(send, {}, { message: ADT }))).code).toBe('CONNECTOR_REQUIRED');
    expect((await failure(runNode(send, { connector: 'nope' }, { message: ADT }, testContext({ services: services(null) })))).code).toBe('CONNECTOR_NOT_FOUND');
    expect((await failure(runNode(send, { connector: 'lab-feed' }, { message: 'hello' }, testContext({ services: services(connector(1)) })))).code).toBe(
      'HL7_INVALID',
    );
  });

  it('is refused by the outbound policy for an internal address it does not allow', async () => {
    const strict = testServices({
      connector: async () => connector(2575, { host: '169.254.169.254' }),
      connect: async ({ host, port }) => {
        try {
          return await connectChecked({ host, port, policy: new OutboundPolicy(), timeoutMs: 1000 });
        } catch (e) {
          throw e instanceof OutboundError ? new NodeError(e.code, e.message) : e;
        }
      },
    });
    const e = await failure(runNode(send, { connector: 'lab-feed' }, { message: ADT }, testContext({ services: strict })));
    expect(e.code).toBe('OUTBOUND_REFUSED');
    expect(e.message).toContain('169.254.169.254');
  });
});
