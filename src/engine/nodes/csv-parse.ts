import { z } from 'zod';
import { describeNode } from '../node-descriptor';

const Config = z.object({
  delimiter: z.string().min(1).max(10).default(',').describe('Field separator, e.g. "," ";" "|" or a tab (the two characters \\t also mean a tab)'),
  header: z.boolean().default(true).describe('First line holds column names: rows become objects; otherwise arrays'),
  skip_empty_lines: z.boolean().default(true).describe('Ignore blank lines'),
  trim: z.boolean().default(true).describe('Remove spaces around each field'),
});

export const csvParse = describeNode({
  id: 'csv-parse',
  name: 'CSV parse',
  idBase: 'parse',
  category: 'data',
  description: 'Parses CSV text (quoted fields, any delimiter) into rows.',
  version: '1.0.0',
  keywords: ['csv', 'tsv', 'parse', 'delimited', 'spreadsheet', 'table', 'rows', 'flat file'],
  side_effect: 'none',
  documentation: [
    'Turns CSV text into JSON rows, following RFC 4180 (quoted fields may hold delimiters, quotes and line',
    'breaks). A UTF-8 byte order mark is ignored. Every row must have as many fields as the first one.',
    'With `header`, rows are objects keyed by column name; without, arrays of strings. Values stay strings',
    '(use a JSONata transform to convert numbers or dates).',
    '',
    '**Example**: `patient_id,family,birth_date\\n129c6ac7,Medhurst46,1927-05-21` gives',
    '`[{"patient_id": "129c6ac7", "family": "Medhurst46", "birth_date": "1927-05-21"}]`.',
  ].join('\n'),
  config: Config,
  example: { delimiter: ',', header: true },
  plan: {
    madeFor: 'csv',
    role: 'step',
    stage: 'parse',
    input: 'text',
    output: 'rows',
    jobs: ['parse'],
    search: false,
    converter: 'converts the value',
    takes: (f) => f.kind === 'csv' && f.type === 'text',
    gives: () => ({ type: 'json', kind: 'csv', list: true }),
    parses: { data: 'csv' },
    takesRaw: true,
    configure: (a) => {
      if (/\btsv\b|\btab[- ](separated|delimited)\b/.test(a.lower)) a.config.delimiter = '\t';
      else if (/\bsemicolon/.test(a.lower)) a.config.delimiter = ';';
      else if (/\bpipe[- ]delimited\b/.test(a.lower)) a.config.delimiter = '|';
    },
  },
  ports: () => ({
    inputs: [{ name: 'text', type: 'text', description: 'The CSV document' }],
    outputs: [{ name: 'rows', type: 'json', description: 'Objects (with header) or arrays of fields' }],
  }),
  errors: { CSV_INVALID: 'malformed input (an unclosed quote, a row with too many or too few fields), with the line number; or the input is not text' },
});
