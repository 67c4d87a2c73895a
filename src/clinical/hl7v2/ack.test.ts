import { describe, expect, it } from 'vitest';
import { buildAck, get, parseMessage, serialize } from './index';
import { hl7Sample, hl7Samples } from '../../../tests/support/clinical/hl7v2';

const NOW = new Date('2024-01-05T13:30:00.250Z');

describe('buildAck', () => {
  it('acknowledges every sample: MSH-3/4 and MSH-5/6 swapped, MSA-2 = MSH-10, same version, processing id and delimiters', () => {
    for (const { name, text } of hl7Samples()) {
      const received = parseMessage(text);
      const ack = buildAck(received, { now: NOW });
      // read back from the text it serializes to, as the sender would
      const back = parseMessage(serialize(ack));
      expect(get(back, 'MSH-3'), name).toBe(get(received, 'MSH-5'));
      const [r3, r4, r5, r6] = received.segments[0]!.fields.slice(3, 7);
      expect(back.segments[0]!.fields.slice(3, 7), name).toEqual([r5, r6, r3, r4]);
      expect(get(back, 'MSA-1'), name).toBe('AA');
      expect(back.segments[1]!.fields[2], name).toBe(received.segments[0]!.fields[10]);
      expect(back.segments[0]!.fields[12], name).toBe(received.segments[0]!.fields[12]);
      expect(back.segments[0]!.fields[11], name).toBe(received.segments[0]!.fields[11]);
      expect(back.delimiters, name).toEqual(received.delimiters);
      expect(back.message_type, name).toBe('ACK');
      expect(back.trigger_event, name).toBe(received.trigger_event);
      expect(back.control_id, name).not.toBe(received.control_id);
      expect(back.control_id.length, name).toBeLessThanOrEqual(20);
    }
  });

  it('writes MSH-9 as ACK^<trigger>^ACK from v2.3.1, ACK^<trigger> before (no structure component then)', () => {
    const v28 = buildAck(parseMessage(hl7Sample('ADT-A01-01.hl7')), { now: NOW });
    expect(v28.segments[0]!.fields[9]).toBe('ACK^A01^ACK');
    expect(v28.structure).toBe('ACK');
    const v23 = buildAck(parseMessage(hl7Sample('ADT01-23.hl7')), { now: NOW });
    expect(v23.segments[0]!.fields[9]).toBe('ACK^A01');
    const v231 = buildAck(parseMessage(hl7Sample('PC1-Problem-Add-v2.3.1.hl7')), { now: NOW });
    expect(v231.segments[0]!.fields[9]).toBe('ACK^PC1^ACK');
  });

  it('gives the exact ACK of an ADT^A01 (original mode, accept)', () => {
    const ack = buildAck(parseMessage(hl7Sample('ADT-A01-01.hl7')), { now: NOW, controlId: 'ACK0001' });
    expect(serialize(ack)).toBe(
      'MSH|^~\\&|EHRApp^1.Edu^ISO|GHHRFacility^2.16.840.1.1122848.1.32^ISO|ADTApp|GHHSFacility^2.16.840.1.122848.1.30^ISO|20240105133000+0000||ACK^A01^ACK|ACK0001|P|2.8\rMSA|AA|MSG00001\r',
    );
  });

  it('builds a NAK with MSA-3 and an ERR laid out for v2.5+ (ERR-2 location, ERR-3 table 0357, ERR-4, ERR-8)', () => {
    const received = parseMessage(hl7Sample('ADT-A01-01.hl7'));
    const nak = buildAck(received, {
      code: 'AE',
      text: 'Name & DOB missing',
      error: { code: '101', message: 'PID-5 is empty', location: 'PID-5.1' },
      now: NOW,
    });
    const [, msa, err] = serialize(nak).split('\r');
    expect(msa).toBe('MSA|AE|MSG00001|Name \\T\\ DOB missing');
    expect(err).toBe('ERR||PID^1^5^1^1|101^Required field missing^HL70357|E||||PID-5 is empty');
    expect(get(nak, 'MSA-3')).toBe('Name & DOB missing');
  });

  it('lays the ERR out as ERR-1 (ELD) before v2.5, and defaults to 207 application internal error', () => {
    const nak = buildAck(parseMessage(hl7Sample('ADT01-23.hl7')), { code: 'AR', error: { message: 'database down', location: 'PID-3' }, now: NOW });
    expect(nak.segments[2]!.fields).toEqual(['ERR', 'PID^1^3^207&Application internal error: database down&HL70357']);
  });

  it('marks an enhanced-mode accept acknowledgment as not to be acknowledged (MSH-15/16 NE) with CA by default', () => {
    const ack = buildAck(parseMessage(hl7Sample('VXU-V04-01.hl7')), { mode: 'enhanced', now: NOW });
    expect(get(ack, 'MSA-1')).toBe('CA');
    expect(ack.segments[0]!.fields.slice(15, 17)).toEqual(['NE', 'NE']);
  });

  it('gives each ACK a new control id', () => {
    const received = parseMessage(hl7Sample('ADT-A02-01.hl7'));
    const ids = new Set(Array.from({ length: 50 }, () => buildAck(received).control_id));
    expect(ids.size).toBe(50);
  });
});
