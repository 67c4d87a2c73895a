import { describe, expect, it } from 'vitest';
import { mllpFrame } from '@/clinical/hl7v2/mllp';
import { FrameTooLarge, MllpDeframer } from './frames';

const A = 'MSH|^~\\&|A|B|C|D|20240101||ADT^A01|1|P|2.5\rPID|1||123';
const B = 'MSH|^~\\&|A|B|C|D|20240101||ADT^A08|2|P|2.5\rPID|1||456';

describe('MllpDeframer', () => {
  it('hands out each framed message, whatever the reads cut', () => {
    const bytes = Buffer.concat([mllpFrame(A), Buffer.from('\r\n'), mllpFrame(B)]);
    for (const cut of [1, 5, 20, bytes.length - 1]) {
      const d = new MllpDeframer(1024);
      const got = [...d.push(bytes.subarray(0, cut)), ...d.push(bytes.subarray(cut))].map((b) => b.toString());
      expect(got).toEqual([A, B]);
    }
  });

  it('keeps an FS inside a message that is not followed by CR', () => {
    const odd = `${A}\x1cX`;
    expect(new MllpDeframer(1024).push(mllpFrame(odd)).map(String)).toEqual([odd]);
  });

  it('refuses a message larger than its limit', () => {
    const d = new MllpDeframer(16);
    expect(() => d.push(Buffer.concat([Buffer.from([0x0b]), Buffer.alloc(64, 0x41)]))).toThrow(FrameTooLarge);
  });
});
