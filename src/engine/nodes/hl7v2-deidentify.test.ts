import { describe, expect, it } from 'vitest';
import { get, parseMessage, serialize, type Hl7v2Message } from '@/clinical/hl7v2';
import { hl7Sample } from '../../../tests/support/clinical/hl7v2';
import { failure, runNode, testContext, testServices } from '../../../tests/support/engine/node-context';
import { hl7v2DeidentifyNode as node } from './hl7v2-deidentify.execute';

const a01 = parseMessage(hl7Sample('ADT-A01-01.hl7'));
const a08 = parseMessage(hl7Sample('ADT-A08-01.hl7'));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Days between two HL7 dates (the date part). */
function days(a: string, b: string): number {
  const t = (v: string) => Date.UTC(Number(v.slice(0, 4)), Number(v.slice(4, 6)) - 1, Number(v.slice(6, 8)));
  return Math.round((t(a) - t(b)) / 86_400_000);
}

describe('hl7v2-deidentify', () => {
  it('works with its default config on a real ADT^A01: PID identifiers hashed, names, phones and street gone, year of birth kept', async () => {
    const ctx = testContext();
    const r = await runNode(node, {}, { message: a01 }, ctx);
    const out = r.outputs.message as Hl7v2Message;
    const again = parseMessage(serialize(out));
    expect(get(again, 'PID-3.1')).toMatch(UUID);
    expect([get(again, 'PID-3.5'), get(again, 'PID-8'), get(again, 'PID-7')]).toEqual(['MR', 'M', '1988']);
    expect([get(again, 'PID-5'), get(again, 'PID-13'), get(again, 'PID-11.1'), get(again, 'NK1-2'), get(again, 'PV1-7.2')]).toEqual(['', '', '', '', '']);
    expect(serialize(out)).not.toMatch(/EVERYMAN|PATID1234|Hospital Lane|78788788/);
    expect(ctx.logs.map((l) => l.message)).toEqual([`de-identified ADT^A01 MSG00001 (${a01.segments.length} segments)`]);
  });

  it('gives two messages of the same patient the same pseudonym and the same date shift', async () => {
    expect(get(a01, 'PID-3.1')).toBe(get(a08, 'PID-3.1'));
    const x = (await runNode(node, {}, { message: a01 })).outputs.message as Hl7v2Message;
    const y = (await runNode(node, {}, { message: a08 })).outputs.message as Hl7v2Message;
    expect(get(x, 'PID-3.1')).toBe(get(y, 'PID-3.1'));
    const shiftX = days(get(x, 'MSH-7')!, get(a01, 'MSH-7')!);
    expect(shiftX).not.toBe(0);
    expect(days(get(y, 'MSH-7')!, get(a08, 'MSH-7')!)).toBe(shiftX);
    expect(days(get(y, 'PV1-44')!, get(a08, 'PV1-44')!)).toBe(shiftX);
  });

  it('gives different pseudonyms under another organization key', async () => {
    const other = testContext({ services: testServices({ orgKey: async () => new Uint8Array(32).fill(42) }) });
    const x = (await runNode(node, {}, { message: a01 })).outputs.message as Hl7v2Message;
    const y = (await runNode(node, {}, { message: a01 }, other)).outputs.message as Hl7v2Message;
    expect(get(x, 'PID-3.1')).not.toBe(get(y, 'PID-3.1'));
    expect(get(x, 'MSH-7')).not.toBe(get(y, 'MSH-7'));
  });

  it('does what its documentation example says', async () => {
    const message = parseMessage(
      'MSH|^~\\&|A|B|C|D|20240105083000||ADT^A01|1|P|2.5.1\rPID|1||PATID1234^5^M11^test^MR||EVERYMAN^ADAM^A||19880818|M|||1000 Hospital Lane^^Ann Arbor^MI^48104\rNTE|1||Called ADAM EVERYMAN at 555-123-4567\r',
    );
    const out = (await runNode(node, {}, { message })).outputs.message as Hl7v2Message;
    const lines = serialize(out).split('\r');
    expect(lines[1]).toMatch(/^PID\|1\|\|[0-9a-f-]{36}\^5\^M11\^test\^MR\|\|\|\|1988\|M\|\|\|\^\^\^MI\^481$/);
    expect(lines[1]).toContain(get((await runNode(node, {}, { message: a01 })).outputs.message as Hl7v2Message, 'PID-3.1')!);
    expect(lines[2]).toBe('NTE|1||Called [NAME] [NAME] at [PHONE]');
  });

  it('routes what is not an hl7v2-message to invalid, or fails when told to', async () => {
    const r = await runNode(node, {}, { message: 'PID|1' });
    expect(r.outputs.invalid).toMatchObject({ value: 'PID|1' });
    const e = await failure(runNode(node, { on_invalid: 'fail' }, { message: { segments: 'no' } }));
    expect(e.code).toBe('HL7_INVALID');
  });
});
