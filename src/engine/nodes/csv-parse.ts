import { CsvError, parse } from 'csv-parse/sync';
import { z } from 'zod';
import { defineNode, NodeError } from '../types';

const Config = z.object({
  delimiter: z
    .string()
    .min(1)
    .max(10)
    .default(',')
    .describe('Field separator, e.g. "," ";" "|" or a tab (the two characters \\t also mean a tab)'),
  header: z.boolean().default(true).describe('First line holds column names: rows become objects; otherwise arrays'),
  skip_empty_lines: z.boolean().default(true).describe('Ignore blank lines'),
  trim: z.boolean().default(true).describe('Remove spaces around each field'),
});

export const csvParse = defineNode({
  id: 'csv-parse',
  name: 'CSV parse',
  category: 'data',
  description: 'Parses CSV text (quoted fields, any delimiter) into rows.',
  version: '1.0.0',
  keywords: ['csv', 'tsv', 'parse', 'delimited', 'spreadsheet', 'table', 'rows', 'flat file'],
  side_effect: 'none',
  documentation: [
    'Turns CSV text into JSON rows, following RFC 4180 (quoted fields may hold delimiters, quotes and line',
    'breaks). A UTF-8 byte order mark is ignored. Every row must have as many fields as the first one.',
    '',
    '**Ports**',
    '- in `text` (text)',
    '- out `rows` (json): with `header`, an array of objects keyed by column name; without, an array of',
    '  arrays of strings. Values stay strings (use a JSONata transform to convert numbers or dates).',
    '',
    '**Config**',
    '- `delimiter`: default `,`; use `;`, `|`, or `\\t` for tab-separated files.',
    '- `header`: default true. `skip_empty_lines`: default true. `trim`: default true.',
    '',
    'Malformed input (an unclosed quote, a row with too many or too few fields) fails the node with',
    '`CSV_INVALID` and the line number.',
    '',
    '**Example**: `patient_id,family,birth_date\\n129c6ac7,Medhurst46,1927-05-21` gives',
    '`[{"patient_id": "129c6ac7", "family": "Medhurst46", "birth_date": "1927-05-21"}]`.',
  ].join('\n'),
  config: Config,
  inputs: () => [{ name: 'text', type: 'text', description: 'The CSV document' }],
  outputs: () => [{ name: 'rows', type: 'json', description: 'Objects (with header) or arrays of fields' }],
  async execute(ctx, inputs, config) {
    const text = inputs.text;
    if (typeof text !== 'string') {
      throw new NodeError('CSV_INVALID', `"text" must be a string of CSV, got ${text === null ? 'null' : typeof text}.`);
    }
    let rows: unknown[];
    try {
      rows = parse(text, {
        delimiter: config.delimiter === '\\t' ? '\t' : config.delimiter,
        columns: config.header,
        skip_empty_lines: config.skip_empty_lines,
        trim: config.trim,
        bom: true,
      }) as unknown[];
    } catch (e) {
      if (e instanceof CsvError) {
        const line = (e as CsvError & { lines?: number }).lines;
        throw new NodeError('CSV_INVALID', `The CSV is malformed${line ? ` at line ${line}` : ''}: ${e.message} (${e.code})`);
      }
      throw new NodeError('CSV_INVALID', `The CSV could not be parsed: ${(e as Error).message}`);
    }
    ctx.log('info', `parsed ${rows.length} row(s)`);
    return { outputs: { rows } };
  },
});
