import { compileJsonata, evaluateJsonata } from '../lib/jsonata';
import { plainRow, poolOf, postgresConnector, postgresFailure } from '../lib/postgres';
import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { postgresQuery } from './postgres-query';

/** Rows fetched from the database per round trip. */
const FETCH_SIZE = 500;

/**
 * A parameter as Postgres takes it: nothing as NULL, everything else as it is. The driver learns each
 * parameter's type from the server and encodes by it: objects and lists as JSON for json/jsonb, lists
 * as arrays for array types.
 */
export function bindable(value: unknown): unknown {
  return value === undefined ? null : value;
}

export const postgresQueryNode = implementNode(postgresQuery, {
  async execute(ctx, inputs, config) {
    const connector = await postgresConnector(ctx.services, config.connector);
    if (!config.sql.trim()) throw new NodeError('SQL_REQUIRED', 'Set `sql` to the query to run.');
    const params: unknown[] = [];
    for (const [i, text] of config.params.entries()) {
      params.push(
        bindable(
          await evaluateJsonata(compileJsonata(text), inputs.input, 'PARAM_FAILED').catch((e: NodeError) => {
            throw new NodeError('PARAM_FAILED', `$${i + 1}: ${e.message}`);
          }),
        ),
      );
    }
    const sql = poolOf(connector, ctx.services);
    try {
      const { rows, more } = await sql.begin('read only', async (tx) => {
        await tx.unsafe(`set local statement_timeout = ${config.timeout_ms}`);
        const rows: Record<string, unknown>[] = [];
        let more = false;
        // JSON values as parameters; postgres.js types them by its serializers' inputs
        for await (const batch of tx.unsafe(config.sql, params as never[]).cursor(Math.min(config.max_rows + 1, FETCH_SIZE))) {
          for (const row of batch) {
            if (rows.length === config.max_rows) more = true;
            else rows.push(plainRow(row));
          }
          if (more) break;
        }
        return { rows, more };
      });
      if (more) ctx.log('warn', `the query has more than ${config.max_rows} rows: only the first ${config.max_rows} were read (max_rows)`);
      ctx.log('info', `${rows.length} row(s) from ${connector.name}`);
      return { outputs: { rows } };
    } catch (e) {
      throw postgresFailure(e, `The query on ${connector.name}`);
    }
  },
});
