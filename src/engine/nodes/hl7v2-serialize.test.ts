import { describe, expect, it } from 'vitest';
import { parseMessage } from '@/clinical/hl7v2';
import { hl7Sample, hl7Samples } from '../../../tests/support/clinical/hl7v2';
import { failure, runNode } from '../../../tests/support/engine/node-context';
import { hl7v2SerializeNode as hl7v2Serialize } from './hl7v2-serialize.execute';

describe('hl7v2-serialize', () => {
  it('works with its default config: CR after each segment, the message as it was sent', async () => {
    const text = hl7Sample('ORU-R01-RMGEAD.hl7');
    const r = await runNode(hl7v2Serialize, {}, { message: parseMessage(text) });
    expect(r.outputs).toEqual({ text: `${text.replace(/\n/g, '\r')}\r` });
  });

  it('with LF gives every sample file back as it is (byte-order mark aside)', async () => {
    for (const { name, text } of hl7Samples()) {
      const r = await runNode(hl7v2Serialize, { segment_terminator: 'LF' }, { message: parseMessage(text) });
      const file = text.replace(/^\uFEFF/, '');
      expect(r.outputs.text, name).toBe(file.endsWith('\n') ? file : `${file}\n`);
    }
  });

  it('writes CRLF when asked', async () => {
    const r = await runNode(hl7v2Serialize, { segment_terminator: 'CRLF' }, { message: parseMessage(hl7Sample('ADT-A40-01.hl7')) });
    expect((r.outputs.text as string).split('\r\n').map((l) => l.slice(0, 3))).toEqual(['MSH', 'EVN', 'PID', 'MRG', '']);
  });

  it('fails with HL7_INVALID on a value that is not a message, naming what is wrong', async () => {
    const m = parseMessage(hl7Sample('ADT-A40-01.hl7'));
    m.segments[2]!.fields[5] = 'DOE|JOHN';
    const e = await failure(runNode(hl7v2Serialize, {}, { message: m }));
    expect(e).toMatchObject({
      code: 'HL7_INVALID',
      message: 'Not an hl7v2-message: segments[2] (PID) fields[5] contains the field separator "|" (escape it as \\F\\).',
    });
    const notOne = await failure(runNode(hl7v2Serialize, {}, { message: { resourceType: 'Patient' } }));
    expect(notOne.message).toBe('Not an hl7v2-message: segments is not a list of segments.');
  });
});
