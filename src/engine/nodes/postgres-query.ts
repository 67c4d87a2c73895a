import { z } from 'zod';
import { jsonataField } from '../lib/jsonata';
import { describeNode } from '../node-descriptor';
import { anyOf, inRow, DATABASE_NAMES } from '../node-plan';

const Config = z.object({
  connector: z.string().max(200).default('').describe('The postgres connector (id or name) of the database to read'),
  sql: z.string().max(50_000).default('').describe('One SQL query; $1, $2… are bound to `params` in order (never write input into the SQL text)'),
  params: z
    .array(jsonataField('A JSONata expression evaluated on the input'))
    .max(100)
    .default([])
    .describe('JSONata expressions evaluated on the input, one per $n: e.g. ["patient_id", "$now()"]'),
  max_rows: z.number().int().min(1).max(100_000).default(1_000).describe('At most this many rows come out; the rest are not read'),
  timeout_ms: z.number().int().min(100).max(600_000).default(30_000).describe('The query is cancelled after this many milliseconds (statement_timeout)'),
});

export const postgresQuery = describeNode({
  id: 'postgres-query',
  name: 'Postgres query',
  idBase: 'db_query',
  category: 'data',
  description: 'Runs a read-only SQL query on a Postgres database (a warehouse, a registry) with parameters from the input; outputs the rows.',
  version: '1.0.0',
  keywords: ['postgres', 'postgresql', 'sql', 'query', 'select', 'database', 'warehouse', 'read', 'lookup', 'db'],
  side_effect: 'none',
  documentation: [
    'Runs `sql` on the database of a `postgres` connector (its schema first on the search path) inside a',
    '**read-only** transaction: a query that tries to write fails with `POSTGRES_ERROR`. Values from the',
    'input reach the query only as bound parameters: `params` lists one JSONata expression per `$1`, `$2`…,',
    'evaluated with the input as `$` (a field name is the simplest expression). Nothing from the input is',
    'ever written into the SQL text, so an input cannot change the query.',
    '',
    '`rows` is the list of result rows as JSON objects (timestamps as ISO text, dates as `YYYY-MM-DD`, bigint',
    'and numeric as text, bytea as base64, json/jsonb parsed). At most `max_rows` rows are read (a warning is logged when there',
    'were more), and the query is cancelled after `timeout_ms`.',
    '',
    'Connections go through the outbound policy (a database on an internal address needs OUTBOUND_ALLOW);',
    'each connector keeps a small pool whose idle connections close after 30 s. The node reads only, so it',
    'runs in test mode too.',
    '',
    '**Example**: the encounters of the incoming patient:',
    '```json',
    '{"connector": "warehouse", "sql": "select id, class, started_at from encounters where patient_id = $1 and started_at >= $2 order by started_at desc",',
    ' "params": ["id", "\\"2024-01-01\\""], "max_rows": 100}',
    '```',
  ].join('\n'),
  config: Config,
  example: {
    connector: 'warehouse',
    sql: 'select id, class, started_at from encounters where patient_id = $1 order by started_at desc',
    params: ['id'],
    max_rows: 100,
    timeout_ms: 30000,
  },
  plan: {
    edit: { names: DATABASE_NAMES },
    role: 'source',
    stage: 'source',
    input: 'input',
    output: 'rows',
    search: false,
    gives: () => ({ type: 'json', kind: 'json', list: true }),
    cue: anyOf(
      inRow(
        /\b(query|select|read|pull|fetch|look\w* up|get)\w*[^.]{0,40}?/,
        /\b(from|in)\s+(the\s+|our\s+|a\s+)?[^.]{0,20}?\b(postgres\w*|database|warehouse|\bdb\b|sql)\b/,
      ),
    ),
    // "write … into the warehouse": the write's words, not a query
    dropWhen: ({ step, others }) =>
      others.some((o) => o.plan.role === 'sink' && o.connector === 'postgres') && /\b(write|insert|load|store|save|upsert|append|land)/.test(step.said),
    configure: (a) => {
      const table = a.table ?? (a.resourceTypes[0] ? `${a.resourceTypes[0].toLowerCase()}s` : undefined);
      if (table) {
        a.config.sql = `select * from ${table} limit 100`;
        a.filled.push(`sql on ${table}`);
      }
      a.missing.push('sql: check the query');
    },
  },
  ports: () => ({
    inputs: [{ name: 'input', type: 'any', optional: true, description: 'What `params` are evaluated on' }],
    outputs: [{ name: 'rows', type: 'json', description: 'The result rows, as JSON objects' }],
  }),
  ui: {
    order: ['connector', 'sql', 'params', 'max_rows', 'timeout_ms'],
    fields: {
      connector: { title: 'Connector', widget: 'connector', connectorType: 'postgres' },
      sql: { title: 'SQL', widget: 'code', placeholder: 'select * from patients where mrn = $1' },
      params: { title: 'Parameters ($1, $2…)', widget: 'json' },
    },
  },
  errors: {
    CONNECTOR_REQUIRED: 'no `connector` is set, or it has no valid connection string',
    CONNECTOR_NOT_FOUND: 'the organization has no connector of that id or name',
    CONNECTOR_TYPE_MISMATCH: 'the connector is not a postgres connector',
    SQL_REQUIRED: 'no `sql` is set',
    INVALID_EXPRESSION: 'a `params` expression does not compile',
    PARAM_FAILED: 'a `params` expression failed on the input',
    POSTGRES_ERROR: 'the database refused the query (syntax, permissions, a write in a read-only query…); the message has its SQLSTATE',
    POSTGRES_TIMEOUT: 'the query ran longer than `timeout_ms`',
    POSTGRES_UNREACHABLE: 'the database could not be reached or refused the login',
    OUTBOUND_REFUSED: 'the database’s address is internal and OUTBOUND_ALLOW does not allow it',
  },
});
