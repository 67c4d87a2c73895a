import { describe, expect, it } from 'vitest';
import { csvParseNode as csvParse } from './csv-parse.execute';
import { runNode, SYNTHEA_PATIENTS, testContext } from '../../../tests/support/engine/node-context';

// A patient extract as an EHR export would give it, built from the Synthea sample.
const header = 'patient_id,family,given,birth_date,gender,city';
const lines = SYNTHEA_PATIENTS.map((p) =>
  [p.id, p.name[0]!.family, p.name[0]!.given.join(' '), p.birthDate, p.gender, `"${p.address[0]!.city}, KS"`].join(','),
);
const csv = `\uFEFF${header}\n${lines.join('\n')}\n\n`;

describe('csv-parse', () => {
  it('turns a CSV export into objects keyed by the header', async () => {
    const ctx = testContext();
    const r = await runNode(csvParse, {}, { text: csv }, ctx);
    const rows = r.outputs.rows as Record<string, string>[];
    expect(rows).toHaveLength(4);
    expect(rows[0]).toEqual({
      patient_id: '129c6ac7-8d06-89de-ad63-0204a93e76c3',
      family: 'Medhurst46',
      given: 'Sumiko254 Larue605',
      birth_date: '1927-05-21',
      gender: 'female',
      city: 'Emporia, KS', // quoted field with the delimiter inside
    });
    expect(ctx.logs.map((l) => l.message)).toContain('parsed 4 row(s)');
  });

  it('gives arrays of fields without a header', async () => {
    const r = await runNode(csvParse, { header: false }, { text: 'a,b\n1,2' });
    expect(r.outputs.rows).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });

  it('honours delimiter, trim and skip_empty_lines', async () => {
    const pipe = await runNode(csvParse, { delimiter: '|' }, { text: 'code | display\nE11.9 | Type 2 diabetes' });
    expect(pipe.outputs.rows).toEqual([{ code: 'E11.9', display: 'Type 2 diabetes' }]);
    const tab = await runNode(csvParse, { delimiter: '\\t' }, { text: 'code\tdisplay\nI10\tHypertension' });
    expect(tab.outputs.rows).toEqual([{ code: 'I10', display: 'Hypertension' }]);
    const raw = await runNode(csvParse, { trim: false, header: false }, { text: ' a , b ' });
    expect(raw.outputs.rows).toEqual([[' a ', ' b ']]);
    await expect(runNode(csvParse, { skip_empty_lines: false }, { text: 'a,b\n\n1,2' })).rejects.toMatchObject({ code: 'CSV_INVALID' });
  });

  it('fails with CSV_INVALID and the line of a row with the wrong field count', async () => {
    await expect(runNode(csvParse, {}, { text: 'a,b\n1,2\n3,4,5\n' })).rejects.toMatchObject({
      code: 'CSV_INVALID',
      message: expect.stringMatching(/at line 3/),
    });
  });

  it('fails with CSV_INVALID on an unclosed quote', async () => {
    await expect(runNode(csvParse, {}, { text: 'a,b\n"1,2\n3,4' })).rejects.toMatchObject({
      code: 'CSV_INVALID',
      message: expect.stringContaining('Quote Not Closed'),
    });
  });

  it('refuses input that is not text', async () => {
    await expect(runNode(csvParse, {}, { text: { rows: [] } })).rejects.toMatchObject({ code: 'CSV_INVALID', message: expect.stringContaining('object') });
  });

  it('gives no rows for an empty document', async () => {
    expect((await runNode(csvParse, {}, { text: '' })).outputs).toEqual({ rows: [] });
  });
});
