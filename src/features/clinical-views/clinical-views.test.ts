import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMessage } from '@/clinical/hl7v2/parse';
import { serialize } from '@/clinical/hl7v2/serialize';
import { tableValue } from '@/clinical/hl7v2/tables';
import { parseX12 } from '@/clinical/x12/parse';
import { x12Samples } from '../../../tests/support/clinical/x12';
import { clinicalKind } from './detect';
import { resourceSummary } from './fhir-summary';
import { hl7Segments, tableLookups, type Hl7Segment } from './hl7v2-model';
import { lineEndOf, pasteInto, withLineEnds } from './line-ends';
import { portTypes } from './node-data-view';
import { elementsOf } from './x12-view';

const DATA = path.resolve(import.meta.dirname, '../../../../shared/data');
const HL7_DIR = path.join(DATA, 'hl7v2/messages');
const FHIR_DIR = path.join(DATA, 'hl7v2/expected-fhir');
const hl7Files = readdirSync(HL7_DIR)
  .filter((f) => f.endsWith('.hl7'))
  .sort();
const hl7 = (f: string) => readFileSync(path.join(HL7_DIR, f), 'utf8');

function field(segments: Hl7Segment[], path: string) {
  return segments.flatMap((s) => s.fields).find((f) => f.path === path);
}

describe('which view a value gets', () => {
  it('every HL7 v2 sample: by port type, by shape, and as raw text', () => {
    for (const f of hl7Files) {
      const text = hl7(f);
      const m = parseMessage(text);
      expect(clinicalKind('hl7v2-message', m), f).toBe('hl7v2');
      expect(clinicalKind('json', m), f).toBe('hl7v2');
      expect(clinicalKind('text', text), f).toBe('hl7v2-text');
      expect(clinicalKind(undefined, text), f).toBe('hl7v2-text');
    }
  });

  it('every X12 sample: interchange and raw text', () => {
    for (const s of x12Samples()) {
      const r = parseX12(s.text);
      expect(r.ok, s.name).toBe(true);
      if (!r.ok) continue;
      expect(clinicalKind('x12-interchange', r.interchange), s.name).toBe('x12');
      expect(clinicalKind('any', r.interchange), s.name).toBe('x12');
      expect(clinicalKind('text', s.text), s.name).toBe('x12-text');
    }
  });

  it('FHIR bundles and resources; other values stay JSON', () => {
    const bundle = JSON.parse(readFileSync(path.join(FHIR_DIR, 'ADT-A01-01.json'), 'utf8')) as { entry: { resource: unknown }[] };
    expect(clinicalKind('fhir-bundle', bundle)).toBe('fhir-bundle');
    expect(clinicalKind(undefined, bundle)).toBe('fhir-bundle');
    expect(clinicalKind('fhir-resource', bundle.entry[0]!.resource)).toBe('fhir-resource');
    // a port that should carry a message but holds something else (an error value) falls back to JSON
    expect(clinicalKind('hl7v2-message', { text: 'x', errors: [] })).toBeNull();
    expect(clinicalKind('json', { name: 'Ada' })).toBeNull();
    expect(clinicalKind('text', 'Hello MSH|')).toBeNull();
    expect(clinicalKind('trigger-event', bundle)).toBeNull();
  });

  it('port types come from the node type and its config', () => {
    expect(portTypes('hl7v2-parse', {}, 'outputs').get('message')).toBe('hl7v2-message');
    expect(portTypes('hl7v2-ack', {}, 'inputs').get('message')).toBe('hl7v2-message');
    expect(portTypes('manual-trigger', { fields: { message: 'text' } }, 'outputs').get('message')).toBe('text');
    expect(portTypes('no-such-node', {}, 'outputs').size).toBe(0);
  });
});

describe('HL7 v2 view model', () => {
  const segments = hl7Segments(parseMessage(hl7('ADT-A01-01.hl7')));

  it('names fields and components, splits repetitions and sub-components', () => {
    const pid5 = field(segments, 'PID-5')!;
    expect(pid5.name).toBe('Patient Name');
    expect(pid5.repetitions).toHaveLength(2);
    const first = pid5.repetitions[0]!;
    expect(first.find((c) => c.name === 'Given Name')?.value).toBe('ADAM');
    const family = first.find((c) => c.name === 'Family Name')!;
    expect(family.parts?.map((p) => p.value)).toEqual(['EVERYMAN', '', '', '', 'Aniston']);
    expect(family.parts?.[0]?.name).toBe('Surname');
    expect(field(segments, 'MSH-9')?.name).toBe('Message Type');
    expect(field(segments, 'MSH-2')?.repetitions[0]![0]!.value).toBe('^~\\&');
    expect(segments.find((s) => s.id === 'ROL')?.of).toBe(3);
    expect(field(segments, 'ROL[2]-3')?.name).toBe('Role-ROL');
  });

  it('decodes escape sequences', () => {
    const pv1 = segments.find((s) => s.id === 'PV1')!;
    const all = pv1.fields.flatMap((f) => f.repetitions.flat().map((c) => c.value));
    expect(all).toContain('NHS Provider-General (inc.A&E-this Hosp)');
  });

  it('asks the tables for the coded values, which the server tables resolve (PID-8 M → Male, PV1-2 P → Preadmit)', () => {
    const lookups = tableLookups(segments);
    expect(lookups).toContainEqual({ table: '0001', code: 'M' });
    expect(lookups).toContainEqual({ table: '0004', code: 'P' });
    expect(tableValue('0001', 'M')).toBe('Male');
    expect(tableValue('0004', 'P')).toBe('Preadmit');
    expect(new Set(lookups.map((l) => `${l.table}|${l.code}`)).size).toBe(lookups.length);
  });

  it('every sample: one row per field, empty ones marked', () => {
    for (const f of hl7Files) {
      const m = parseMessage(hl7(f));
      const rows = hl7Segments(m);
      expect(
        rows.map((s) => s.fields.length),
        f,
      ).toEqual(m.segments.map((s) => s.fields.length - 1));
      for (const [i, s] of rows.entries())
        for (const fld of s.fields) expect(fld.empty, `${f} ${fld.path}`).toBe(m.segments[i]!.fields[fld.n] === '' || m.segments[i]!.fields[fld.n] === '""');
    }
  });
});

describe('FHIR summaries', () => {
  it('a Patient by name, gender and birth date; an Encounter by class', () => {
    const bundle = JSON.parse(readFileSync(path.join(FHIR_DIR, 'ADT-A01-01.json'), 'utf8')) as { entry: { resource: { resourceType: string } }[] };
    const of = (t: string) => bundle.entry.map((e) => e.resource).find((r) => r.resourceType === t);
    expect(resourceSummary(of('Patient'))).toBe('ADAM A Addsm EVERYMAN · male · born 1988-08-18');
    expect(resourceSummary(of('Encounter'))).toMatch(/^pre-admission · Emergency/);
  });

  it('an Observation by code and value', () => {
    const bundle = JSON.parse(readFileSync(path.join(FHIR_DIR, 'ORU-R01-01.json'), 'utf8')) as { entry: { resource: Record<string, unknown> }[] };
    const obs = bundle.entry.map((e) => e.resource).filter((r) => r.resourceType === 'Observation');
    expect(obs.length).toBeGreaterThan(0);
    for (const o of obs) {
      const s = resourceSummary(o);
      const q = o.valueQuantity as { value?: number } | undefined;
      if (q?.value !== undefined) expect(s).toContain(String(q.value));
      expect(s.length).toBeGreaterThan(0);
    }
  });
});

describe('X12 elements', () => {
  it('composites joined by the component separator, empty elements left out', () => {
    const r = parseX12(x12Samples('837_005010X222A2').find((s) => s.name.endsWith('demo.example1.837'))!.text);
    if (!r.ok) throw new Error('sample does not parse');
    const t = r.interchange.groups[0]!.transactions[0]!;
    const clm = JSON.stringify(t.loops).includes('"CLM"');
    expect(clm).toBe(true);
    const nm1 = t.loops[0]!.segments[0]!;
    expect(elementsOf(nm1, r.interchange.separators, false)).toEqual([
      ['NM101', '41'],
      ['NM102', '2'],
      ['NM103', 'PREMIER BILLING SERVICE'],
      ['NM108', '46'],
      ['NM109', 'TGJ23'],
    ]);
    expect(elementsOf(nm1, r.interchange.separators, true)).toHaveLength(9);
  });
});

describe('pasted messages keep their line ends', () => {
  it('a message pasted into an empty field is kept byte for byte, with CR (as feeds send it) or LF (as the sample file has it)', () => {
    const file = hl7('ADT-A01-01.hl7');
    const feed = file.replace(/\n/g, '\r');
    expect(lineEndOf(file)).toBe('\n');
    expect(lineEndOf(feed)).toBe('\r');
    expect(pasteInto('', 0, 0, file, lineEndOf(file)!)).toBe(file);
    expect(pasteInto('', 0, 0, feed, lineEndOf(feed)!)).toBe(feed);
    // either way the parser reads the same message
    expect(serialize(parseMessage(feed))).toBe(serialize(parseMessage(file)));
  });

  it('typing keeps the chosen line end; switching rewrites all of them', () => {
    const cr = 'MSH|^~\\&|A\rPID|1';
    // the textarea gives LF: the edit goes back with CR
    expect(withLineEnds('MSH|^~\\&|A\nPID|1\nPV1|1', '\r')).toBe('MSH|^~\\&|A\rPID|1\rPV1|1');
    expect(withLineEnds(cr, '\r\n')).toBe('MSH|^~\\&|A\r\nPID|1');
    // pasting in the middle (positions of the textarea's LF form)
    expect(pasteInto(cr, 11, 11, 'EVN|A01\r\n', '\r')).toBe('MSH|^~\\&|A\rEVN|A01\rPID|1');
  });
});
