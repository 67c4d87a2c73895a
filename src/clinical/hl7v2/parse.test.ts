import { describe, expect, it } from 'vitest';
import { batchMessages, isBatch, parseBatch, parseHl7v2, parseMessage, serialize, type Hl7v2Batch, type Hl7v2Message } from './index';
import { hl7Sample, hl7Samples, normalized } from '../../../tests/support/clinical/hl7v2';

const ADT = [
  'MSH|^~\\&|ADTApp|GHH^2.16.840.1.1^ISO|EHRApp|GHR|20240105083000||ADT^A01^ADT_A01|MSG00001|P|2.5.1',
  'EVN|A01|20240105083000',
  'PID|1||PATID1234^^^GHH^MR~123-45-6789^^^USSSA^SS||EVERYMAN^ADAM^A||19610615|M',
  'PV1|1|I|4E^136^B',
];

function message(text: string): Hl7v2Message {
  const r = parseHl7v2(text);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  if (isBatch(r.value)) throw new Error('a batch');
  return r.value;
}

function batch(text: string): Hl7v2Batch {
  const r = parseHl7v2(text);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  if (!isBatch(r.value)) throw new Error('not a batch');
  return r.value;
}

function errorsOf(text: string) {
  const r = parseHl7v2(text);
  if (r.ok) throw new Error('parsed');
  return r.errors;
}

describe('parseHl7v2 on the samples', () => {
  const samples = hl7Samples();

  it('reads all 69 sample files as one message each and serializes every one back to the same message', () => {
    expect(samples).toHaveLength(69);
    const same = samples.filter(({ text }) => serialize(message(text)) === normalized(text));
    expect(same.map((s) => s.name)).toEqual(samples.map((s) => s.name));
  });

  it('keeps one segment per line of the file, in order, each field as the text between the separators', () => {
    for (const { name, text } of samples) {
      const lines = text
        .replace(/^\uFEFF/, '')
        .split('\n')
        .filter((l) => l !== '');
      const m = message(text);
      expect(
        m.segments.map((s) => s.id),
        name,
      ).toEqual(lines.map((l) => l.slice(0, 3)));
      const pid = lines.find((l) => l.startsWith('PID|'));
      if (pid) expect(m.segments.find((s) => s.id === 'PID')!.fields, name).toEqual(pid.split('|'));
    }
  });

  it('reads the message type and trigger the file names give (ADT-A01-01.hl7 is an ADT^A01)', () => {
    const named = samples.filter((s) => /^[A-Z]{3}-[A-Z]\d\d-/.test(s.name));
    expect(named.length).toBeGreaterThan(50);
    for (const { name, text } of named) {
      const [type, trigger] = name.split('-');
      const m = message(text);
      expect(`${m.message_type}^${m.trigger_event}`, name).toBe(`${type}^${trigger}`);
    }
  });

  it('gives the header facts of a v2.8 ADT^A01 and of a v2.3 one with a byte-order mark', () => {
    const { segments: _s, ...facts } = message(hl7Sample('ADT-A01-01.hl7'));
    expect(facts).toEqual({
      message_type: 'ADT',
      trigger_event: 'A01',
      structure: 'ADT_A01',
      control_id: 'MSG00001',
      version: '2.8',
      processing_id: 'P',
      sent_at: '198908181126+0215',
      sending_application: 'ADTApp',
      sending_facility: 'GHHSFacility',
      receiving_application: 'EHRApp',
      receiving_facility: 'GHHRFacility',
      delimiters: { field: '|', component: '^', repetition: '~', escape: '\\', subcomponent: '&', truncation: '' },
    });
    const old = message(hl7Sample('ADT01-23.hl7'));
    expect(old.segments[0]!.fields.slice(0, 4)).toEqual(['MSH', '|', '^~\\&', 'AccMgr']);
    expect([old.message_type, old.trigger_event, old.structure, old.version, old.control_id]).toEqual(['ADT', 'A01', '', '2.3', '599102']);
  });

  it('numbers MSH fields as HL7 does: fields[1] is the separator, fields[2] the encoding characters, fields[9] the type', () => {
    const msh = message(ADT.join('\r')).segments[0]!;
    expect(msh.fields[1]).toBe('|');
    expect(msh.fields[2]).toBe('^~\\&');
    expect(msh.fields[9]).toBe('ADT^A01^ADT_A01');
    expect(msh.fields[12]).toBe('2.5.1');
  });
});

describe('parseHl7v2 on what feeds send', () => {
  it('reads CR, LF, CRLF and mixed segment ends, a byte-order mark and trailing blank lines alike', () => {
    const expected = message(ADT.join('\r'));
    for (const text of [ADT.join('\n'), ADT.join('\r\n') + '\r\n\r\n', `\uFEFF${ADT.join('\r')}\r`, `${ADT[0]}\r\n${ADT[1]}\n${ADT[2]}\r${ADT[3]}\n`]) {
      expect(message(text)).toEqual(expected);
    }
    expect(serialize(expected)).toBe(`${ADT.join('\r')}\r`);
  });

  it('keeps trailing empty fields and spaces, so nothing moves on re-serialization', () => {
    const text = 'MSH|^~\\&|A||||20240101||ADT^A08|1|P|2.3|| \rPID|1||||DOE^JOHN||||||||||||||| \rZPI|x|||\r';
    const m = message(text);
    expect(m.segments[0]!.fields.slice(-2)).toEqual(['', ' ']);
    expect(m.segments[2]!.fields).toEqual(['ZPI', 'x', '', '', '']);
    expect(serialize(m)).toBe(text);
  });

  it('uses the delimiters the message declares, five of them from v2.7 (truncation)', () => {
    const text = 'MSH*$@!%#*SND*FAC*RCV*FAC*20240101**ORU$R01$ORU_R01*42*P*2.7\rPID*1**ID1$$$AUTH$MR@ID2$$$AUTH$PI**DOE%JR$JOHN\r';
    const m = message(text);
    expect(m.delimiters).toEqual({ field: '*', component: '$', repetition: '@', escape: '!', subcomponent: '%', truncation: '#' });
    expect([m.message_type, m.trigger_event, m.structure, m.control_id]).toEqual(['ORU', 'R01', 'ORU_R01', '42']);
    expect(m.segments[1]!.fields[3]).toBe('ID1$$$AUTH$MR@ID2$$$AUTH$PI');
    expect(serialize(m)).toBe(text);
  });

  it('reads Z-segments like any other', () => {
    const m = message([...ADT, 'ZPI|1|VIP^Very important|Y'].join('\r'));
    expect(m.segments.at(-1)).toEqual({ id: 'ZPI', fields: ['ZPI', '1', 'VIP^Very important', 'Y'] });
  });

  it('reads a batch file (FHS, BHS, messages, BTS, FTS) and gives it back unchanged', () => {
    const second = ADT.map((l) => l.replace('MSG00001', 'MSG00002').replace('EVERYMAN', 'DOE'));
    const text = ['FHS|^~\\&|ADTApp|GHH|||20240105', 'BHS|^~\\&|ADTApp|GHH|||20240105||||B1', ...ADT, ...second, 'BTS|2', 'FTS|1'].join('\r') + '\r';
    const b = batch(text);
    expect(b.file_header!.fields[3]).toBe('ADTApp');
    expect(b.batches).toHaveLength(1);
    expect(b.batches[0]!.header!.fields[11]).toBe('B1');
    expect(batchMessages(b).map((m) => m.control_id)).toEqual(['MSG00001', 'MSG00002']);
    expect(batchMessages(b)[1]!.segments.map((s) => s.id)).toEqual(['MSH', 'EVN', 'PID', 'PV1']);
    expect(b.batches[0]!.trailer!.fields).toEqual(['BTS', '2']);
    expect(b.file_trailer!.fields).toEqual(['FTS', '1']);
    expect(serialize(b)).toBe(text);
    const r = parseHl7v2(text);
    expect(r.ok && r.warnings).toEqual([]);
  });

  it('warns when BTS-1 or FTS-1 does not count what the batch holds', () => {
    const r = parseHl7v2(['BHS|^~\\&|A', ...ADT, 'BTS|3', 'BHS|^~\\&|A', ...ADT, 'BTS|1', 'FTS|1'].join('\n'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect((r.value as Hl7v2Batch).batches.map((g) => g.messages.length)).toEqual([1, 1]);
    expect(r.warnings.map((w) => w.message)).toEqual([
      'BTS-1 says the batch holds 3 message(s), it holds 1.',
      'FTS-1 says the file holds 1 batch(es), it holds 2.',
    ]);
  });

  it('reads messages sent one after the other without an envelope as a batch, and parseBatch wraps a single message', () => {
    const b = batch([...ADT, ...ADT.map((l) => l.replace('MSG00001', 'MSG00002'))].join('\n'));
    expect(b.file_header).toBeUndefined();
    expect(b.batches.map((g) => g.messages.map((m) => m.control_id))).toEqual([['MSG00001', 'MSG00002']]);
    expect(parseBatch(ADT.join('\r')).batches[0]!.messages[0]!.control_id).toBe('MSG00001');
    expect(() => parseMessage([...ADT, ...ADT].join('\r'))).toThrow('Expected one HL7 v2 message, found a batch of 2 message(s).');
  });
});

describe('parseHl7v2 refuses what is not HL7 v2, saying where', () => {
  it('text that does not start with MSH (a CSV, an X12 claim, nothing at all)', () => {
    expect(errorsOf('patient_id,family\n1,DOE')).toEqual([
      {
        code: 'HL7_INVALID',
        message: 'Not HL7 v2: a message starts with an MSH segment (or FHS/BHS for a batch), found "patient_id,family" (line 1).',
        line: 1,
      },
    ]);
    expect(errorsOf('ISA*00*          *00*          *ZZ*SENDER')[0]!.message).toContain('found "ISA*00*          *00*   …"');
    expect(errorsOf('\uFEFF \r\n\n')[0]!.message).toBe('Not HL7 v2: the text is empty.');
  });

  it('bad encoding characters in MSH-2', () => {
    expect(errorsOf('MSH|^~|A|B\rPID|1')).toEqual([
      {
        code: 'HL7_INVALID',
        message:
          'MSH-2 must hold the encoding characters (component, repetition, escape, sub-component and, from v2.7, truncation, as in "^~\\&"), each once and none the field separator, found "^~" (line 1).',
        line: 1,
        segment: 'MSH',
      },
    ]);
    expect(errorsOf('MSHA^~\\&|x')[0]!.message).toContain('MSH-1, the field separator, must be one character that is not a letter, digit or space, found "A"');
    expect(errorsOf('MSH|^^\\&|x')[0]!.message).toContain('each once');
  });

  it('every line that is not a segment, with its number', () => {
    const text = [...ADT.slice(0, 3), 'wrapped text of a long note', 'PV1^1', 'pv2|x'].join('\n');
    expect(errorsOf(text).map((e) => [e.line, e.message])).toEqual([
      [4, 'Line 4 does not start with a segment id (three upper-case letters or digits, the first a letter, such as PID): "wrapped text of a long n…".'],
      [5, 'Line 5 (PV1): the segment id is followed by "^", not the field separator "|".'],
      [6, 'Line 6 does not start with a segment id (three upper-case letters or digits, the first a letter, such as PID): "pv2|x".'],
    ]);
  });

  it('segments outside a message in a batch', () => {
    const errors = errorsOf(['BHS|^~\\&|A', 'PID|1', ...ADT, 'BTS|1', 'FTS|1', ...ADT].join('\r'));
    expect(errors.map((e) => e.message)).toEqual([
      'Line 2: segment PID is outside a message (no MSH before it in its batch).',
      'Line 9: a message after the file trailer (FTS).',
    ]);
  });

  it('something that is not text', () => {
    expect(parseHl7v2(42 as unknown as string)).toEqual({ ok: false, errors: [{ code: 'HL7_INVALID', message: 'Not HL7 v2: expected text, got number.' }] });
  });
});
