import { describe, expect, it } from 'vitest';
import { Hl7v2Error, parseMessage, problems, readMessage, serialize, type Hl7v2Message } from './index';
import { hl7Sample, hl7Samples } from '../../../tests/support/clinical/hl7v2';

const a01 = () => parseMessage(hl7Sample('ADT-A01-01.hl7'));

describe('serialize', () => {
  it('writes each segment followed by CR, LF or CRLF: with LF every sample file comes back as it is (without its BOM)', () => {
    for (const { name, text } of hl7Samples()) {
      const file = text.replace(/^\uFEFF/, '');
      expect(serialize(parseMessage(text), { terminator: 'LF' }), name).toBe(file.endsWith('\n') ? file : `${file}\n`);
    }
    expect(serialize(a01(), { terminator: 'CRLF' }).split('\r\n')).toHaveLength(25);
  });

  it('writes what an edit changed: a field replaced in the segments', () => {
    const m = a01();
    m.segments.find((s) => s.id === 'PID')!.fields[8] = 'F';
    expect(serialize(m)).toContain('|198808181126+0215|F|elbert^Son|');
  });

  it('refuses a value a code node broke, naming the segment and field', () => {
    const m = a01();
    m.segments[3]!.fields[5] = 'DOE|JOHN';
    m.segments[4]!.fields[3] = 'line one\nline two';
    expect(problems(m)).toEqual([
      'segments[3] (PID) fields[5] contains the field separator "|" (escape it as \\F\\)',
      'segments[4] (PD1) fields[3] contains a line break (write it as \\.br\\)',
    ]);
    expect(() => serialize(m)).toThrow(Hl7v2Error);
    expect(() => serialize(m)).toThrow('Not an hl7v2-message: segments[3] (PID) fields[5] contains the field separator "|"');
    expect(problems({ segments: [{ id: 'PID', fields: ['PID'] }] })).toEqual(['segments[0] must be the MSH segment, found "PID"']);
    expect(
      problems({
        segments: [
          { id: 'MSH', fields: ['MSH', '|', '^~\\&'] },
          { id: 'pid', fields: ['pid'] },
        ],
      }),
    ).toEqual(['segments[1].id "pid" is not a segment id (three upper-case letters or digits)']);
    expect(problems('MSH|^~\\&')).toEqual(['the value is not an object']);
    expect(problems({ resourceType: 'Patient' })).toEqual(['segments is not a list of segments']);
  });
});

describe('readMessage', () => {
  it('reads the header facts again from MSH, so an edited MSH wins over a stale copy', () => {
    const m: Hl7v2Message = { ...a01(), control_id: 'stale' };
    m.segments[0]!.fields[10] = 'NEW-ID';
    expect(readMessage(m).control_id).toBe('NEW-ID');
    const minimal = readMessage({ segments: [{ id: 'MSH', fields: ['MSH', '|', '^~\\&', 'APP', '', '', '', '', '', 'ORU^R01', '7', 'P', '2.5'] }] });
    expect([minimal.message_type, minimal.trigger_event, minimal.control_id, minimal.delimiters.component]).toEqual(['ORU', 'R01', '7', '^']);
  });

  it('refuses a batch and what is not a message', () => {
    expect(() => readMessage({ batches: [] })).toThrow('Not an hl7v2-message: a batch is not one message (take its messages one by one).');
    expect(() => readMessage({ segments: [{ id: 'MSH', fields: ['MSH', '|', '^~'] }] })).toThrow('MSH-2 must hold the encoding characters');
  });
});
