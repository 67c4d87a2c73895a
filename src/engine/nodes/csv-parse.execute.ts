import { CsvError, parse } from 'csv-parse/sync';
import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { csvParse } from './csv-parse';

export const csvParseNode = implementNode(csvParse, {
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
