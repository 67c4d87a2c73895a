import { describe, expect, it } from 'vitest';
import { decode, encode, get, getAll, hl7, hl7all, Hl7PathError, parseMessage, parsePath, segments } from './index';
import { DEFAULT_DELIMITERS } from './header';
import { hl7Sample, hl7Samples } from '../../../tests/support/clinical/hl7v2';

const a01 = parseMessage(hl7Sample('ADT-A01-01.hl7'));
const oru = parseMessage(hl7Sample('ORU-R01-01.hl7'));

describe('get and getAll by HL7 path', () => {
  it('reads fields, components, repetitions and sub-components of a real ADT^A01, decoded', () => {
    // PID|1|1234567^4^M11…|PATID1234^5^M11^test1&2.16.1&HCD^MR^GOOD HEALTH HOSPITAL~123456789^^^USSSA^SS|…|EVERYMAN&&&&Aniston^ADAM^A^III^Dr.^MD^D…~Josh&&&&Bing^^stanley…
    expect(get(a01, 'PID-5.2')).toBe('ADAM');
    expect(get(a01, 'PID-5.1')).toBe('EVERYMAN');
    expect(get(a01, 'PID-5.1.5')).toBe('Aniston');
    expect(get(a01, 'PID-5[2].1.5')).toBe('Bing');
    expect(get(a01, 'PID-3[2].1')).toBe('123456789');
    expect(get(a01, 'PID-3[2].4')).toBe('USSSA');
    expect(get(a01, 'PID-3.4.2')).toBe('2.16.1');
    expect(get(a01, 'PID-8')).toBe('M');
    expect(get(a01, 'PV1-2')).toBe('P');
    expect(get(a01, 'MSH-9.2')).toBe('A01');
  });

  it('reads a path that stops above the leaf as its first part (PID-5 is the surname), as HAPI Terser does', () => {
    expect(get(a01, 'PID-5')).toBe('EVERYMAN');
    expect(get(a01, 'PID-5')).toBe(get(a01, 'PID-5[1].1.1'));
  });

  it('decodes escape sequences in what it reads: PV1-14 "A\\T\\E" is "A&E"', () => {
    expect(a01.segments.find((s) => s.id === 'PV1')!.fields[14]).toBe('NHS Provider-General (inc.A\\T\\E-this Hosp)');
    expect(get(a01, 'PV1-14')).toBe('NHS Provider-General (inc.A&E-this Hosp)');
  });

  it('gives MSH-1 and MSH-2 as sent, not split', () => {
    expect(get(a01, 'MSH-1')).toBe('|');
    expect(get(a01, 'MSH-2')).toBe('^~\\&');
    expect(get(a01, 'MSH.9.1')).toBe('ADT');
    expect(get(a01, 'msh-10')).toBe('MSG00001');
  });

  it('takes the n-th occurrence of a segment, and lists every one with getAll', () => {
    const obx = segments(oru, 'OBX');
    expect(obx.length).toBeGreaterThan(2);
    expect(get(oru, 'OBX[2]-3.1')).toBe(obx[1]!.fields[3]!.split('^')[0]);
    const values = getAll(oru, 'OBX-3.2');
    expect(values).toHaveLength(obx.length);
    expect(getAll(oru, 'OBX[*]-3.2')).toEqual(values);
    expect(getAll(a01, 'PID-3.1')).toEqual(['PATID1234', '123456789']);
    expect(getAll(a01, 'PID-3[2].1')).toEqual(['123456789']);
    expect(getAll(a01, 'OBX-5')).toEqual(['60', '120']);
  });

  it('tells an absent segment (undefined) from an empty or absent field ("")', () => {
    expect(get(a01, 'ZPI-1')).toBeUndefined();
    expect(get(a01, 'OBX[9]-5')).toBeUndefined();
    expect(get(a01, 'PID-2.9')).toBe('');
    expect(get(a01, 'PID-99')).toBe('');
    expect(get(a01, 'PID-3[7].1')).toBe('');
    expect(getAll(a01, 'ZPI-1')).toEqual([]);
  });

  it('reads the patient ids of every PID of every sample, as a plain split of the text does', () => {
    let n = 0;
    for (const { name, text } of hl7Samples()) {
      const m = parseMessage(text);
      const pids = m.segments.filter((s) => s.id === 'PID');
      if (!pids.length) continue;
      n++;
      const naive = pids.flatMap((pid) => (pid.fields[3] ?? '').split('~').map((r) => r.split('^')[0]!.split('&')[0]!));
      expect(getAll(m, 'PID-3.1'), name).toEqual(naive.map((v) => decode(v, m.delimiters)));
    }
    expect(n).toBeGreaterThan(60);
  });

  it('refuses what is not a path, saying how to write one', () => {
    for (const bad of ['PID', 'PID5', 'PID-0', 'PID-5..1', 'OBX[0]-5', '1PI-3', 'PID-x']) {
      expect(() => get(a01, bad), bad).toThrow(Hl7PathError);
    }
    expect(() => parsePath('PID5')).toThrow(
      'Not an HL7 path: "PID5" (write a segment id and field number, as in PID-5, PID-5.1, PID-3[2].1, OBX[2]-5 or OBX[*]-5).',
    );
    expect(parsePath('OBX[2]-5[3].1.2')).toEqual({ segment: 'OBX', occurrence: 2, field: 5, repetition: 3, component: 1, subcomponent: 2 });
  });
});

describe('$hl7 and $hl7all for JSONata', () => {
  it('read a message value or raw HL7 text, and give nothing for what is not a message', () => {
    expect(hl7(a01, 'PID-5.2')).toBe('ADAM');
    expect(hl7(hl7Sample('ADT-A01-01.hl7'), 'PID-5.2')).toBe('ADAM');
    expect(hl7all(a01, 'PID-3.1')).toEqual(['PATID1234', '123456789']);
    expect(hl7(undefined, 'PID-5')).toBeUndefined();
    expect(hl7({ resourceType: 'Patient' }, 'PID-5')).toBeUndefined();
    const built = {
      segments: [
        { id: 'MSH', fields: ['MSH', '|', '^~\\&', 'APP'] },
        { id: 'PID', fields: ['PID', '1', '', 'X1', '', 'DOE^JANE'] },
      ],
    };
    expect(hl7(built, 'PID-5.2')).toBe('JANE');
  });
});

describe('escape sequences', () => {
  const d = DEFAULT_DELIMITERS;

  it('decodes the delimiter escapes, hexadecimal data and formatting commands', () => {
    expect(decode('A\\F\\B\\S\\C\\T\\D\\R\\E\\E\\F', d)).toBe('A|B^C&D~E\\F');
    expect(decode('Line one\\.br\\Line two\\.sp 2\\end', d)).toBe('Line one\nLine two\n\nend');
    expect(decode('\\H\\IMPORTANT\\N\\ value', d)).toBe('IMPORTANT value');
    expect(decode('caf\\XC3A9\\ \\X41\\', d)).toBe('café A');
    expect(decode('\\XE9\\', d)).toBe('é'); // not UTF-8: ISO 8859-1
    expect(decode('x\\.sk 3\\y', d)).toBe('x   y');
  });

  it('keeps what cannot be read: character-set switches, local escapes, a lone escape character', () => {
    expect(decode('\\C2842\\abc\\Zlocal\\', d)).toBe('\\C2842\\abc\\Zlocal\\');
    expect(decode('C:\\temp', d)).toBe('C:\\temp');
    expect(decode('\\P\\', d)).toBe('\\P\\'); // no truncation character declared
    expect(decode('\\P\\', { ...d, truncation: '#' })).toBe('#');
  });

  it('encodes what a value holds so that decoding gives it back', () => {
    const text = 'Smith & Sons | 100% ^up~ C:\\path\nnext line';
    expect(encode(text, d)).toBe('Smith \\T\\ Sons \\F\\ 100% \\S\\up\\R\\ C:\\E\\path\\.br\\next line');
    expect(decode(encode(text, d), d)).toBe(text);
    expect(encode('a\r\nb', d)).toBe('a\\.br\\b');
  });
});
