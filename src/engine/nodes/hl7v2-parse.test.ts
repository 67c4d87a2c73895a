import { describe, expect, it } from 'vitest';
import { serialize, type Hl7v2Message } from '@/clinical/hl7v2';
import { hl7Sample, hl7Samples, normalized } from '../../../tests/support/clinical/hl7v2';
import { runPipeline } from '../run';
import { failure, runNode, testContext, testServices } from '../../../tests/support/engine/node-context';
import { hl7v2ParseNode as hl7v2Parse } from './hl7v2-parse.execute';
import { getNodeType } from './index';

const ADT = 'MSH|^~\\&|ADTApp|GHH|EHRApp|GHR|20240105083000||ADT^A01^ADT_A01|MSG00001|P|2.5.1\rPID|1||PATID1234^^^GHH^MR||EVERYMAN^ADAM^A||19610615|M\r';

describe('hl7v2-parse', () => {
  it('works with its default config: an ADT^A01 becomes an hl7v2-message with its header facts', async () => {
    const ctx = testContext();
    const r = await runNode(hl7v2Parse, {}, { text: hl7Sample('ADT-A01-01.hl7') }, ctx);
    expect(Object.keys(r.outputs)).toEqual(['message']);
    const m = r.outputs.message as Hl7v2Message;
    expect([m.message_type, m.trigger_event, m.control_id, m.version]).toEqual(['ADT', 'A01', 'MSG00001', '2.8']);
    expect(m.segments.find((s) => s.id === 'PID')!.fields[8]).toBe('M');
    expect(ctx.logs.map((l) => l.message)).toEqual(['parsed ADT^A01 (ADT_A01) v2.8, 24 segment(s), control id MSG00001']);
  });

  it('parses every sample to a value that gives the message back', async () => {
    for (const { name, text } of hl7Samples()) {
      const r = await runNode(hl7v2Parse, {}, { text });
      expect(serialize(r.outputs.message as Hl7v2Message), name).toBe(normalized(text));
    }
  });

  it('routes text that is not HL7 v2 to invalid with each error and its line', async () => {
    const text = 'patient_id,family\n1,DOE';
    const r = await runNode(hl7v2Parse, {}, { text });
    expect(r.outputs).toEqual({
      invalid: {
        text,
        errors: [
          {
            code: 'HL7_INVALID',
            message: 'Not HL7 v2: a message starts with an MSH segment (or FHS/BHS for a batch), found "patient_id,family" (line 1).',
            line: 1,
          },
        ],
      },
    });
  });

  it('with on_invalid "fail" stops with HL7_INVALID naming the bad lines', async () => {
    const e = await failure(runNode(hl7v2Parse, { on_invalid: 'fail' }, { text: `${ADT}this line is not a segment\r` }));
    expect(e.code).toBe('HL7_INVALID');
    expect(e.message).toBe(
      'Line 3 does not start with a segment id (three upper-case letters or digits, the first a letter, such as PID): "this line is not a segme…".',
    );
  });

  it('fires messages for a batch, in order, and logs a count that does not match BTS-1', async () => {
    const ctx = testContext();
    const text = `BHS|^~\\&|ADTApp\r${ADT}${ADT.replace('MSG00001', 'MSG00002')}BTS|3\r`;
    const r = await runNode(hl7v2Parse, {}, { text }, ctx);
    expect(Object.keys(r.outputs)).toEqual(['messages']);
    expect((r.outputs.messages as Hl7v2Message[]).map((m) => m.control_id)).toEqual(['MSG00001', 'MSG00002']);
    expect(ctx.logs.map((l) => `${l.level} ${l.message}`)).toEqual([
      'warn BTS-1 says the batch holds 3 message(s), it holds 2.',
      'info batch of 2 message(s) in 1 batch(es)',
    ]);
  });

  it('refuses an input that is not text', async () => {
    const e = await failure(runNode(hl7v2Parse, {}, { text: { segments: [] } }));
    expect(e).toMatchObject({ code: 'HL7_INVALID', message: '"text" must be HL7 v2 text, got object.' });
  });

  it('runs in a pipeline: text → parse → JSONata ($hl7) and → ACK, bad text to a quarantine output', async () => {
    //   in(message: text) ▶ parse ─message▶ name (jsonata $hl7) ▶ out
    //                            │        └▶ ack ─text▶ reply
    //                            └invalid▶ quarantine
    const node = (id: string, type: string, config: Record<string, unknown> = {}) => ({ id, type, config, position: { x: 0, y: 0 } });
    const link = (source: string, source_port: string, target: string, target_port: string) => ({ source, source_port, target, target_port });
    const def = {
      nodes: [
        node('in', 'manual-trigger', { fields: { message: 'text' } }),
        node('parse', 'hl7v2-parse'),
        node('name', 'jsonata-transform', {
          expression: '{"patient": $hl7($, "PID-5.2") & " " & $hl7($, "PID-5.1"), "ids": $hl7all($, "PID-3.1"), "sex": segments[id="PID"].fields[8]}',
        }),
        node('ack', 'hl7v2-ack'),
        node('out', 'pipeline-output', { key: 'patient' }),
        node('reply', 'pipeline-output', { key: 'reply' }),
        node('quarantine', 'pipeline-output', { key: 'quarantine' }),
      ],
      connections: [
        link('in', 'message', 'parse', 'text'),
        link('parse', 'message', 'name', 'input'),
        link('parse', 'message', 'ack', 'message'),
        link('name', 'output', 'out', 'value'),
        link('ack', 'text', 'reply', 'value'),
        link('parse', 'invalid', 'quarantine', 'value'),
      ],
    };
    const run = (message: string) =>
      runPipeline(def, { executionId: 'exec-hl7', inputs: { message }, testMode: false, registry: getNodeType, services: testServices() });

    const good = await run(hl7Sample('ADT-A01-01.hl7'));
    expect(good.status).toBe('completed');
    expect(good.outputs.patient).toEqual({ patient: 'ADAM EVERYMAN', ids: ['PATID1234', '123456789'], sex: 'M' });
    expect(good.outputs.reply).toMatch(
      /^MSH\|\^~\\&\|EHRApp\^1\.Edu\^ISO\|GHHRFacility\^[^|]+\|ADTApp\|GHHSFacility\^[^|]+\|\d{14}\+0000\|\|ACK\^A01\^ACK\|\w+\|P\|2\.8\rMSA\|AA\|MSG00001\r$/,
    );
    expect(good.nodes.quarantine!.status).toBe('skipped');

    const bad = await run('hello');
    expect(bad.status).toBe('completed');
    expect(bad.nodes.ack!.status).toBe('skipped');
    expect((bad.outputs.quarantine as { errors: { code: string }[] }).errors[0]!.code).toBe('HL7_INVALID');
  });

  it('feeds a batch to a for-each that acknowledges each message', async () => {
    //   in(batch: text) ▶ parse ─messages▶ each [ item: hl7v2-message ▶ ack ─text▶ out(ack) ] ─results▶ acks
    const def = {
      nodes: [
        { id: 'in', type: 'manual-trigger', config: { fields: { batch: 'text' } }, position: { x: 0, y: 0 } },
        { id: 'parse', type: 'hl7v2-parse', config: {}, position: { x: 0, y: 0 } },
        {
          id: 'each',
          type: 'for-each',
          position: { x: 0, y: 0 },
          config: {
            body: {
              nodes: [
                { id: 'item', type: 'manual-trigger', config: { fields: { item: 'hl7v2-message' } } },
                { id: 'ack', type: 'hl7v2-ack', config: {} },
                { id: 'out', type: 'pipeline-output', config: { key: 'ack' } },
              ],
              connections: [
                { source: 'item', source_port: 'item', target: 'ack', target_port: 'message' },
                { source: 'ack', source_port: 'text', target: 'out', target_port: 'value' },
              ],
            },
          },
        },
        { id: 'acks', type: 'pipeline-output', config: { key: 'acks' }, position: { x: 0, y: 0 } },
      ],
      connections: [
        { source: 'in', source_port: 'batch', target: 'parse', target_port: 'text' },
        { source: 'parse', source_port: 'messages', target: 'each', target_port: 'items' },
        { source: 'each', source_port: 'results', target: 'acks', target_port: 'value' },
      ],
    };
    const batch = `FHS|^~\\&\rBHS|^~\\&\r${ADT}${ADT.replace('MSG00001', 'MSG00002')}BTS|2\rFTS|1\r`;
    const r = await runPipeline(def, { executionId: 'exec-hl7-batch', inputs: { batch }, testMode: false, registry: getNodeType, services: testServices() });
    expect(r.status).toBe('completed');
    const acks = (r.outputs.acks as { ack: string }[]).map((a) => a.ack.split('\r')[1]);
    expect(acks).toEqual(['MSA|AA|MSG00001', 'MSA|AA|MSG00002']);
  });
});
