import { describe, expect, it } from 'vitest';
import { serializeX12, type X12Interchange } from '@/clinical/x12';
import { x12Sample, x12Samples } from '../../../tests/support/clinical/x12';
import { failure, runNode, testContext } from '../../../tests/support/engine/node-context';
import { x12ParseNode as x12Parse } from './x12-parse.execute';

describe('x12-parse', () => {
  it('works with its default config: an 837P becomes an x12-interchange that serializes back', async () => {
    const text = x12Sample('837_005010X222A2/demo.example1.837');
    const ctx = testContext();
    const r = await runNode(x12Parse, {}, { text }, ctx);
    expect(Object.keys(r.outputs)).toEqual(['interchange']);
    const ic = r.outputs.interchange as X12Interchange;
    expect(ic.groups[0]!.transactions[0]).toMatchObject({ set: '837', kind: '837P', guide: '005010X222A2' });
    expect(serializeX12(ic)).toBe(text);
    expect(ctx.logs.map((l) => l.message)).toEqual(['parsed 44 segment(s): 1 group(s), transaction set(s) 837P']);
  });

  it('parses every sample, strict, to a value that gives the text back (the 271 with a wrong SE02 aside)', async () => {
    for (const { name, text } of x12Samples()) {
      const r = await runNode(x12Parse, { strict: true }, { text });
      if (name.endsWith('subscriber-health-benefit-check-error.271')) expect(Object.keys(r.outputs)).toEqual(['invalid']);
      else expect(serializeX12(r.outputs.interchange as X12Interchange), name).toBe(text);
    }
  });

  it('routes text that is not X12 to invalid with the error and where', async () => {
    const text = 'MSH|^~\\&|EPIC|HOSP|||20240101||ADT^A01|1|P|2.5\r';
    const r = await runNode(x12Parse, {}, { text });
    expect(r.outputs).toEqual({
      invalid: {
        text,
        errors: [
          {
            code: 'X12_INVALID',
            message: 'Not X12: the text must start with an ISA segment, found "MSH|^~\\\\&|EPI" (line 1, column 1, segment 1)',
            position: { segment: 1, offset: 0, line: 1, column: 1 },
          },
        ],
      },
    });
  });

  it('strict: a control mismatch goes to invalid naming the segment; lenient: the value lists it as a warning', async () => {
    const text = x12Sample('271_005010X279A1/subscriber-health-benefit-check-error.271');
    const strict = await runNode(x12Parse, { strict: true }, { text });
    expect(strict.outputs.invalid).toMatchObject({ text, errors: [{ code: 'SE02_CONTROL', segment: 'SE', element: 'SE02', position: { line: 10 } }] });
    const ctx = testContext();
    const lenient = await runNode(x12Parse, { strict: false }, { text }, ctx);
    expect((lenient.outputs.interchange as X12Interchange).warnings).toMatchObject([{ code: 'SE02_CONTROL' }]);
    expect(ctx.logs).toContainEqual(expect.objectContaining({ level: 'warn', message: 'SE02 control number "4323" does not match ST02 "4321"' }));
  });

  it('with on_invalid "fail" stops with X12_INVALID or X12_CONTROL_MISMATCH', async () => {
    const notX12 = await failure(runNode(x12Parse, { on_invalid: 'fail' }, { text: 'hello' }));
    expect(notX12.code).toBe('X12_INVALID');
    expect(notX12.message).toContain('must start with an ISA segment');
    const text = x12Sample('837_005010X222A2/demo.example1.837').replace('SE*40*0021', 'SE*38*0021');
    const control = await failure(runNode(x12Parse, { strict: true, on_invalid: 'fail' }, { text }));
    expect(control.code).toBe('X12_CONTROL_MISMATCH');
    expect(control.message).toBe('Control counts or numbers do not match: SE01 says "38" segments but transaction set 0021 has 40 (ST through SE)');
  });

  it('refuses an input that is not text', async () => {
    const e = await failure(runNode(x12Parse, {}, { text: { ISA: {} } }));
    expect(e).toMatchObject({ code: 'X12_INVALID', message: '"text" must be X12 text, got object.' });
  });
});
