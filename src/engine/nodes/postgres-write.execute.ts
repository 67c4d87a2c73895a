import type postgres from 'postgres';
import type { z } from 'zod';
import { compileJsonata, evaluateJsonata, toPlainJson } from '../lib/jsonata';
import { poolOf, postgresConnector, postgresFailure } from '../lib/postgres';
import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { bindable } from './postgres-query.execute';
import { postgresWrite } from './postgres-write';

type Config = z.infer<typeof postgresWrite.config>;
type Row = Record<string, unknown>;

const MAX_ROWS = 50_000;
/** Postgres takes at most 65535 parameters per statement; rows go in chunks well below that. */
const MAX_PARAMS = 30_000;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

function inputRows(value: unknown): Row[] {
  const rows = Array.isArray(value) ? value : [value];
  if (rows.some((r) => !r || typeof r !== 'object' || Array.isArray(r)))
    throw new NodeError('INVALID_ROWS', 'The input must be an object or a list of objects (one per row).');
  if (rows.length > MAX_ROWS) throw new NodeError('TOO_MANY_ROWS', `${rows.length} rows in one write: at most ${MAX_ROWS} (split them with a for-each).`);
  return rows as Row[];
}

/** The rows as they are written: the column mapping applied, or the rows' own fields. */
async function mapped(rows: Row[], config: Config): Promise<{ columns: string[]; rows: Row[] }> {
  const mapping = Object.entries(config.columns);
  if (mapping.length === 0) {
    const columns = Object.keys(rows[0] ?? {});
    const key = [...columns].sort().join(',');
    const odd = rows.findIndex((r) => Object.keys(r).sort().join(',') !== key);
    if (odd >= 0) throw new NodeError('INVALID_ROWS', `Row ${odd + 1} has other fields than row 1 (${columns.join(', ')}): give a \`columns\` mapping.`);
    return { columns, rows };
  }
  const compiled = mapping.map(([column, expression]) => [column, compileJsonata(expression)] as const);
  const out: Row[] = [];
  for (const [i, row] of rows.entries()) {
    const values: Row = {};
    for (const [column, expression] of compiled) {
      const value = await evaluateJsonata(expression, row, 'MAPPING_FAILED').catch((e: NodeError) => {
        throw new NodeError('MAPPING_FAILED', `Row ${i + 1}, column ${column}: ${e.message}`);
      });
      values[column] = value === undefined ? null : toPlainJson(value, 'MAPPING_FAILED');
    }
    out.push(values);
  }
  return { columns: compiled.map(([c]) => c), rows: out };
}

/** One INSERT for a chunk of rows: its text (identifiers quoted) and its parameters (every value bound). */
function statement(config: Config, table: string, columns: string[], rows: Row[]): [string, unknown[]] {
  const params: unknown[] = [];
  const tuples = rows.map((row) => `(${columns.map((c) => (params.push(bindable(row[c])), `$${params.length}`)).join(', ')})`);
  let text = `insert into ${table} (${columns.map(quote).join(', ')}) values ${tuples.join(', ')}`;
  const keys = config.conflict_columns;
  if (keys.length) {
    const others = columns.filter((c) => !keys.includes(c));
    const target = `on conflict (${keys.map(quote).join(', ')})`;
    text +=
      config.mode === 'upsert' && others.length
        ? ` ${target} do update set ${others.map((c) => `${quote(c)} = excluded.${quote(c)}`).join(', ')}`
        : ` ${target} do nothing`;
  }
  return [text, params];
}

export const postgresWriteNode = implementNode(postgresWrite, {
  async execute(ctx, inputs, config) {
    const connector = await postgresConnector(ctx.services, config.connector);
    if (!config.table) throw new NodeError('TABLE_REQUIRED', 'Set `table` to the table to write (schema.table, or a table of the connector’s schema).');
    const { columns, rows } = await mapped(inputRows(inputs.rows), config);
    if (columns.length === 0) throw new NodeError('INVALID_ROWS', 'The rows have no fields to write.');
    const missing = config.conflict_columns.filter((c) => !columns.includes(c));
    if (missing.length) throw new NodeError('INVALID_ROWS', `The rows have no value for the key column(s) ${missing.join(', ')}.`);
    if (ctx.testMode) {
      ctx.log('info', `test mode: would ${config.mode} ${rows.length} row(s) into ${config.table}`);
      return { outputs: { result: { simulated: true, table: config.table, mode: config.mode, rows } }, simulated: true };
    }
    const table = config.table.split('.').map(quote).join('.');
    const perChunk = Math.max(1, Math.min(1_000, Math.floor(MAX_PARAMS / columns.length)));
    const sql = poolOf(connector, ctx.services);
    try {
      const written = await sql.begin(async (tx: postgres.TransactionSql) => {
        await tx.unsafe(`set local statement_timeout = ${config.timeout_ms}`);
        let count = 0;
        for (let i = 0; i < rows.length; i += perChunk) {
          const [text, params] = statement(config, table, columns, rows.slice(i, i + perChunk));
          // values come from the node's rows (JSON); postgres.js types parameters by its serializers' inputs
          count += (await tx.unsafe(text, params as never[])).count;
        }
        return count;
      });
      ctx.log('info', `${config.mode}: ${written} of ${rows.length} row(s) written into ${config.table} (${connector.name})`);
      return { outputs: { result: { table: config.table, mode: config.mode, written, skipped: rows.length - written } } };
    } catch (e) {
      throw postgresFailure(e, `Writing into ${config.table} on ${connector.name}`);
    }
  },
});
