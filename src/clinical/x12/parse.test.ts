import jsonata from 'jsonata';
import { X12Parser, type X12Interchange as NodeX12Interchange } from 'node-x12';
import { describe, expect, it } from 'vitest';
import { allSegments, parseX12, segmentText, serializeX12, type X12Interchange } from './index';
import { x12Sample, x12Samples } from '../../../tests/support/clinical/x12';

const samples = x12Samples();

function parsed(text: string, strict = false): X12Interchange {
  const r = parseX12(text, { strict });
  if (!r.ok) throw new Error(`did not parse: ${JSON.stringify(r.errors)}`);
  return r.interchange;
}

describe('parseX12 / serializeX12 on every sample of ../shared/data/x12', () => {
  it('covers 837P, 837I (4010 and 5010), 835, 834, 270, 271, 276 and 277', () => {
    expect(samples.length).toBe(41);
    const kinds = new Set(samples.map((s) => parsed(s.text).groups[0]!.transactions.map((t) => `${t.kind} ${t.guide}`)).flat());
    for (const k of [
      '837P 004010X098A1',
      '837P 005010X222A2',
      '837I 004010X096A1',
      '837I 005010X223A3',
      '835 005010X221A1',
      '834 005010X220A1',
      '270 005010X279A1',
      '271 005010X279A1',
      '276 005010X212',
      '277 005010X212',
    ]) {
      expect(kinds).toContain(k);
    }
  });

  it.each(samples.map((s) => [s.name, s.text] as const))('%s parses and serializes back to the same bytes', (_name, text) => {
    expect(serializeX12(parsed(text))).toBe(text);
  });

  it('cuts segments and elements as node-x12 does on every sample (ISA13 and IEA02 aside, which node-x12 rewrites as numbers)', () => {
    for (const { name, text } of samples) {
      const theirs = new X12Parser(false).parse(text) as NodeX12Interchange;
      const wire: string[] = [theirs.header.toString()];
      for (const g of theirs.functionalGroups) {
        wire.push(g.header.toString());
        for (const t of g.transactions) wire.push(t.header.toString(), ...t.segments.map((s) => s.toString()), t.trailer.toString());
        wire.push(g.trailer.toString());
      }
      wire.push(theirs.trailer.toString());
      const ours = parsed(text);
      const strip = (s: string) =>
        s
          .replace(/~$/, '')
          .replace(/^(ISA(\*[^*]*){12}\*)0*(\d+)/, '$1$3')
          .replace(/^(IEA\*\d+\*)0*(\d+)/, '$1$2');
      expect(
        allSegments(ours).map((s) => strip(segmentText(s, ours.separators))),
        name,
      ).toEqual(wire.map(strip));
    }
  });
});

describe('what the serialization normalizes', () => {
  const text = x12Sample('837_005010X222A2/demo.example1.837');

  it('keeps the line break found after ISA: none, LF, CRLF or CR', () => {
    for (const line of ['', '\n', '\r\n', '\r']) {
      const variant = text.replaceAll('~\n', `~${line}`);
      const ic = parsed(variant);
      expect(ic.separators.line).toBe(line);
      expect(serializeX12(ic)).toBe(variant);
    }
  });

  it('drops a byte-order mark, trailing line breaks and leading whitespace, and writes mixed breaks as the one after ISA', () => {
    expect(serializeX12(parsed(`\uFEFF${text}\r\n\r\n`))).toBe(text);
    expect(serializeX12(parsed(`\n  ${text}`))).toBe(text);
    const mixed = text.replace('~\nBHT', '~\r\nBHT').replace('~\nNM1*41', '~NM1*41');
    expect(serializeX12(parsed(mixed))).toBe(text);
  });

  it('re-delimits the whole interchange when the separators change, ISA11 and ISA16 included', () => {
    const ic = parsed(text);
    const rewritten = serializeX12({ ...ic, separators: { element: '|', component: '>', repetition: '!', segment: '\n', line: '' } });
    expect(rewritten.split('\n')[0]).toBe('ISA|03|9876543210|01|9876543210|30|000000005      |30|12345          |131031|1147|!|00501|000000907|1|T|>');
    expect(rewritten).toContain('\nSV1|HC>99213|40.00|UN|1.00|||1\n');
    const again = parsed(rewritten);
    expect(again.separators).toEqual({ element: '|', component: '>', repetition: '!', segment: '\n', line: '' });
    expect(again.groups).toEqual(ic.groups);
    expect(serializeX12({ ...again, separators: ic.separators })).toBe(text);
  });
});

describe('the x12-interchange value', () => {
  const ic = parsed(x12Sample('837_005010X222A2/demo.example1.837'));
  const tx = ic.groups[0]!.transactions[0]!;

  it('keeps envelopes and elements as on the wire, named as the guides name them', () => {
    expect(ic.separators).toEqual({ element: '*', component: ':', repetition: '^', segment: '~', line: '\n' });
    expect(ic.ISA.ISA06).toBe('000000005      ');
    expect(ic.ISA.ISA13).toBe('000000907');
    expect(ic.IEA).toEqual({ id: 'IEA', IEA01: '1', IEA02: '000000907' });
    expect(ic.groups[0]!.GS.GS08).toBe('005010X222A2');
    expect(tx).toMatchObject({ set: '837', guide: '005010X222A2', kind: '837P', ST: { ST02: '0021' }, SE: { SE01: '40' } });
    const claim = tx.loops[2]!.loops[2]!.loops[2]!.loops[1]!;
    expect(claim.loop).toBe('2300');
    expect(claim.segments[0]).toEqual({
      id: 'CLM',
      CLM01: '26463774',
      CLM02: '100.00',
      CLM03: '',
      CLM04: '',
      CLM05: ['11', 'B', '1'],
      CLM06: 'Y',
      CLM07: 'A',
      CLM08: 'Y',
      CLM09: 'I',
    });
    expect(claim.loops.map((l) => l.loop)).toEqual(['2400', '2400', '2400', '2400']);
    expect(claim.loops[2]!.segments[1]).toEqual({
      id: 'SV1',
      SV101: ['HC', '99214'],
      SV102: '35.00',
      SV103: 'UN',
      SV104: '1.00',
      SV105: '',
      SV106: '',
      SV107: '2',
    });
  });

  it('splits repeated elements into repetitions of components', () => {
    const eligibility = parsed(x12Sample('271_005010X279A1/subscriber-health-benefit-check.271'));
    const eb = eligibility.groups[0]!.transactions[0]!.loops[0]!.loops[1]!.loops[1]!.loops[0]!.loops[2]!.segments[0]!;
    expect(eb).toEqual({ id: 'EB', EB01: '1', EB02: '', EB03: [['1'], ['33'], ['35'], ['47'], ['86'], ['88'], ['98'], ['AL'], ['MH'], ['UC']] });
    expect(parsed(x12Sample('834_005010X220A1/add-dependent.834')).separators.repetition).toBe('>');
  });

  it('is addressable in JSONata: the line charges of every claim', async () => {
    const expr = jsonata(`groups.transactions.**[loop='2300'].{
      "claim": segments[id='CLM'].CLM01,
      "total": $number(segments[id='CLM'].CLM02),
      "lines": $sum(loops[loop='2400'].segments[id='SV1'].$number(SV102)),
      "codes": loops[loop='2400'].segments[id='SV1'].SV101[1]
    }`);
    expect(JSON.parse(JSON.stringify(await expr.evaluate(ic)))).toEqual({
      claim: '26463774',
      total: 100,
      lines: 100,
      codes: ['99213', '87070', '99214', '86663'],
    });
    const names = await jsonata(`**.segments[id='NM1' and NM101='85'].NM103`).evaluate(ic);
    expect(names).toBe('BEN KILDARE SERVICE');
  });
});

describe('control checks: strict fails, lenient warns', () => {
  const text = x12Sample('837_005010X222A2/demo.example1.837');

  it('the 271 sample whose SE02 does not match ST02', () => {
    const sample = x12Sample('271_005010X279A1/subscriber-health-benefit-check-error.271');
    const strict = parseX12(sample, { strict: true });
    expect(strict.ok).toBe(false);
    expect(!strict.ok && strict.errors).toEqual([
      {
        code: 'SE02_CONTROL',
        message: 'SE02 control number "4323" does not match ST02 "4321"',
        segment: 'SE',
        element: 'SE02',
        position: { segment: 10, offset: 346, line: 10, column: 1 },
      },
    ]);
    const lenient = parseX12(sample);
    expect(lenient.ok && lenient.interchange.warnings.map((w) => w.code)).toEqual(['SE02_CONTROL']);
    expect(lenient.ok && serializeX12(lenient.interchange)).toBe(sample);
  });

  it('every sample but that one passes strict mode', () => {
    const failing = samples.filter((s) => !parseX12(s.text, { strict: true }).ok).map((s) => s.name);
    expect(failing).toEqual(['271_005010X279A1/subscriber-health-benefit-check-error.271']);
  });

  it.each([
    [
      'SE01 segment count',
      text.replace('SE*40*0021', 'SE*39*0021'),
      'SE01_COUNT',
      'SE',
      'SE01 says "39" segments but transaction set 0021 has 40 (ST through SE)',
    ],
    ['GE01 transaction count', text.replace('GE*1*1', 'GE*2*1'), 'GE01_COUNT', 'GE', 'GE01 says "2" transaction sets but functional group 1 has 1'],
    ['GE02 control number', text.replace('GE*1*1', 'GE*1*7'), 'GE02_CONTROL', 'GE', 'GE02 control number "7" does not match GS06 "1"'],
    ['IEA01 group count', text.replace('IEA*1*', 'IEA*3*'), 'IEA01_COUNT', 'IEA', 'IEA01 says "3" functional groups but the interchange has 1'],
    [
      'IEA02 control number',
      text.replace('IEA*1*000000907', 'IEA*1*907'),
      'IEA02_CONTROL',
      'IEA',
      'IEA02 control number "907" does not match ISA13 "000000907"',
    ],
    ['a missing SE', text.replace('SE*40*0021~\n', ''), 'MISSING_SE', 'ST', 'Transaction set 0021 (ST at segment 3) has no SE trailer'],
    ['a missing IEA', text.replace('~\nIEA*1*000000907~', '~'), 'MISSING_IEA', 'ISA', 'The interchange 000000907 has no IEA trailer'],
    [
      'a short ISA',
      text.replace('000000005      ', '000000005'),
      'ISA_LENGTH',
      'ISA',
      'The ISA segment is 100 characters long, terminator included; it must be 106 (fixed-width elements)',
    ],
  ])('%s', (_label, bad, code, segment, message) => {
    const strict = parseX12(bad, { strict: true });
    expect(strict.ok).toBe(false);
    expect(!strict.ok && strict.errors[0]).toMatchObject({ code, segment, message });
    const lenient = parseX12(bad);
    expect(lenient.ok && lenient.warnings.map((w) => w.code)).toEqual([code]);
    expect(lenient.ok && serializeX12(lenient.interchange)).toBe(bad);
  });

  it('reports every control error at once, each with its segment and position', () => {
    const bad = text.replace('SE*40*0021', 'SE*41*0022').replace('GE*1*1', 'GE*2*1');
    const r = parseX12(bad, { strict: true });
    expect(!r.ok && r.errors.map((e) => [e.code, e.segment, e.position?.line])).toEqual([
      ['SE01_COUNT', 'SE', 42],
      ['SE02_CONTROL', 'SE', 42],
      ['GE01_COUNT', 'GE', 43],
    ]);
  });
});

describe('text that is not X12 gives X12_INVALID with where', () => {
  const text = x12Sample('835_005010X221A1/managed-care.835');

  it.each([
    ['an HL7 v2 message', 'MSH|^~\\&|EPIC|HOSP|||20240101||ADT^A01|1|P|2.5\r', 'must start with an ISA segment, found "MSH|^~\\\\&|EPI"', 1, 1],
    ['empty text', '', 'must start with an ISA segment, found ""', 1, 1],
    ['a cut-off ISA', 'ISA*00*          *00*   ', 'the ISA segment has 4 of its 16 elements', 1, 1],
    ['a lower-case segment id', text.replace('CLP*8765432112', 'clp*8765432112'), '"clp" is not a segment id', 20, 1],
    ['a segment outside a transaction set', text.replace('GE*1*1~', 'GE*1*1~\nNM1*QC*1~'), 'NM1 outside a transaction set', 30, 1],
    ['no terminator at the end', text.slice(0, -1), 'the last segment has no segment terminator "~"', 30, 1],
  ])('%s', (_label, bad, message, line, column) => {
    const r = parseX12(bad);
    expect(r.ok).toBe(false);
    const [error] = !r.ok ? r.errors : [];
    expect(error?.code).toBe('X12_INVALID');
    expect(error?.message).toContain(message);
    expect(error?.position).toMatchObject({ line, column });
  });
});
