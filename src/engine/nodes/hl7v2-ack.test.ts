import { describe, expect, it } from 'vitest';
import { get, parseMessage, type Hl7v2Message } from '@/clinical/hl7v2';
import { hl7Sample } from '../../../tests/support/clinical/hl7v2';
import { failure, runNode, testContext } from '../../../tests/support/engine/node-context';
import { hl7v2AckNode as hl7v2Ack } from './hl7v2-ack.execute';

const a01 = parseMessage(hl7Sample('ADT-A01-01.hl7'));

describe('hl7v2-ack', () => {
  it('works with its default config: an AA acknowledgment as a value and as CR-terminated text', async () => {
    const ctx = testContext();
    const r = await runNode(hl7v2Ack, {}, { message: a01 }, ctx);
    const ack = r.outputs.ack as Hl7v2Message;
    expect([ack.message_type, ack.trigger_event, ack.structure, ack.version]).toEqual(['ACK', 'A01', 'ACK', '2.8']);
    expect([ack.sending_application, ack.sending_facility, ack.receiving_application, ack.receiving_facility]).toEqual([
      'EHRApp',
      'GHHRFacility',
      'ADTApp',
      'GHHSFacility',
    ]);
    expect(ack.segments[1]!.fields).toEqual(['MSA', 'AA', 'MSG00001']);
    expect(r.outputs.text).toBe(`MSH${ack.segments[0]!.fields.slice(1, 2)}${ack.segments[0]!.fields.slice(2).join('|')}\rMSA|AA|MSG00001\r`);
    expect(ctx.logs.map((l) => l.message)).toEqual([`AA for ADT^A01 MSG00001 (ACK control id ${ack.control_id})`]);
  });

  it('builds a NAK with the error in MSA-3 and an ERR segment (its example config)', async () => {
    const r = await runNode(hl7v2Ack, hl7v2Ack.example, { message: a01 });
    const lines = (r.outputs.text as string).split('\r');
    expect(lines[1]).toBe('MSA|AE|MSG00001|PID-5 (patient name) is missing');
    expect(lines[2]).toBe('ERR||PID^1^5^1|101^Required field missing^HL70357|E||||PID-5 (patient name) is missing');
  });

  it('sends an error code without text as 207 application internal error, and a reject as AR', async () => {
    const r = await runNode(hl7v2Ack, { code: 'AR' }, { message: a01 });
    const ack = r.outputs.ack as Hl7v2Message;
    expect(get(ack, 'MSA-1')).toBe('AR');
    expect(get(ack, 'ERR-3.2')).toBe('Application internal error');
  });

  it('in enhanced mode sends the commit codes (AA → CA) and NE in MSH-15/16; refuses CA in original mode', async () => {
    const r = await runNode(hl7v2Ack, { mode: 'enhanced' }, { message: a01 });
    const ack = r.outputs.ack as Hl7v2Message;
    expect([get(ack, 'MSA-1'), get(ack, 'MSH-15'), get(ack, 'MSH-16')]).toEqual(['CA', 'NE', 'NE']);
    const refused = hl7v2Ack.config.safeParse({ code: 'CE' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe('CE is an enhanced-mode code: set mode to "enhanced", or use AE');
    expect(hl7v2Ack.config.safeParse({ error_location: 'PID5' }).success).toBe(false);
  });

  it('acknowledges a message a code node edited by what its MSH now says', async () => {
    const edited: Hl7v2Message = structuredClone(a01);
    edited.segments[0]!.fields[10] = 'EDITED-1';
    const r = await runNode(hl7v2Ack, {}, { message: edited });
    expect((r.outputs.ack as Hl7v2Message).segments[1]!.fields[2]).toBe('EDITED-1');
  });

  it('fails with HL7_INVALID when the input is not a message', async () => {
    const e = await failure(runNode(hl7v2Ack, {}, { message: 'MSH|^~\\&|A' }));
    expect(e).toMatchObject({ code: 'HL7_INVALID', message: 'Not an hl7v2-message: the value is not an object.' });
  });
});
