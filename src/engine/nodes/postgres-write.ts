import { z } from 'zod';
import { jsonataField } from '../lib/jsonata';
import { describeNode } from '../node-descriptor';
import { anyOf, DATABASE_NAMES } from '../node-plan';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/;
const Column = z.string().regex(IDENTIFIER, 'a column name: letters, digits and _, not starting with a digit');

const Config = z
  .object({
    connector: z.string().max(200).default('').describe('The postgres connector (id or name) of the database to write'),
    table: z
      .string()
      .regex(/^([A-Za-z_][A-Za-z0-9_$]{0,62}\.)?[A-Za-z_][A-Za-z0-9_$]{0,62}$/, 'a table name, optionally with its schema: encounters or warehouse.encounters')
      .optional()
      .describe('The table to write (schema.table, or a table of the connector’s schema)'),
    mode: z.enum(['insert', 'upsert']).default('insert').describe('insert: new rows; upsert: insert, or update the row with the same conflict_columns'),
    conflict_columns: z
      .array(Column)
      .max(32)
      .default([])
      .describe('The key columns (a primary key or unique constraint): upsert updates the row with these values; insert skips it'),
    columns: z
      .record(Column, jsonataField('A JSONata expression evaluated on each row'))
      .default({})
      .describe('Column → JSONata expression on each input row, e.g. {"patient_id": "subject.reference"}; empty: the row’s own fields'),
    timeout_ms: z.number().int().min(100).max(600_000).default(30_000).describe('The write is cancelled after this many milliseconds (statement_timeout)'),
  })
  .superRefine((c, ctx) => {
    if (c.mode === 'upsert' && c.conflict_columns.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['conflict_columns'],
        message: 'upsert needs the key columns (a primary key or unique constraint) to match rows on',
      });
    }
  });

export const postgresWrite = describeNode({
  id: 'postgres-write',
  name: 'Postgres write',
  idBase: 'db_write',
  category: 'data',
  description: 'Inserts or upserts rows into a Postgres table (a warehouse, a registry), all in one transaction.',
  version: '1.0.0',
  keywords: ['postgres', 'postgresql', 'sql', 'insert', 'upsert', 'write', 'database', 'warehouse', 'load', 'table', 'db'],
  side_effect: 'write',
  documentation: [
    'Writes `rows` (a list of objects, or one object) into `table` of the database of a `postgres` connector.',
    'Each column’s value is its `columns` expression (JSONata, with the input row as `$`); with no `columns`',
    'the row’s own fields are the columns (every row must then have the same ones). Objects and lists are',
    'written as JSON (json/jsonb columns); values are always bound parameters, never SQL text.',
    '',
    '- `insert`: new rows. With `conflict_columns`, a row whose key already exists is skipped (`on conflict do',
    '  nothing`).',
    '- `upsert`: a row whose `conflict_columns` match an existing row updates that row’s other columns',
    '  (`on conflict (…) do update`).',
    '',
    '**Idempotent on retry**: all rows are written in one transaction (all or none), so a failed attempt',
    'leaves nothing behind. Give `conflict_columns` (a primary key or unique constraint) and a retry after a',
    'commit whose answer was lost writes nothing twice; plain `insert` without them may.',
    '',
    '`result` is `{"table": …, "mode": …, "written": <rows inserted or updated>, "skipped": <rows left as',
    'they were>}`.',
    '',
    '**Test mode**: no connection is made. `result` is `{"simulated": true, "table", "mode", "rows": [the rows',
    'as they would be written]}`.',
    '',
    '**Example**: load Conditions into a warehouse table keyed by id:',
    '```json',
    '{"connector": "warehouse", "table": "clinical.conditions", "mode": "upsert", "conflict_columns": ["id"],',
    ' "columns": {"id": "id", "patient_id": "$substringAfter(subject.reference, \\"/\\")", "code": "code.coding[0].code", "resource": "$"}}',
    '```',
  ].join('\n'),
  config: Config,
  example: {
    connector: 'warehouse',
    table: 'clinical.conditions',
    mode: 'upsert',
    conflict_columns: ['id'],
    columns: { id: 'id', patient_id: '$substringAfter(subject.reference, "/")', code: 'code.coding[0].code', resource: '$' },
    timeout_ms: 30000,
  },
  plan: {
    edit: { cue: /\bpostgres\w*|\bwarehouse\b|\bdatabase\b|\btable\b|\bsql\b|\b(archive|copy)\b/, names: DATABASE_NAMES },
    role: 'sink',
    stage: 'sink',
    input: 'rows',
    output: 'result',
    search: false,
    takes: (f) => f.type !== 'text' && !(f.kind === 'fhir' && (f.type === 'fhir-bundle' || f.bundle)),
    cue: anyOf(
      /\b(write|insert|load|store|save|upsert|append|land|sync|copy|export|send|push)\w*[^.]{0,60}?\b(postgres\w*|database|warehouse|\btable\b|\bdb\b|\bsql\b)/,
    ),
    // beside a FHIR write, only when a database is named
    dropWhen: ({ step, others }) =>
      others.some((o) => o.plan.role === 'sink' && o.connector === 'fhir') && !/postgres|database|warehouse|\bdb\b|sql|table/.test(step.said),
    configure: (a) => {
      if (a.flow.kind === 'fhir') {
        a.config.columns = { id: 'id', resource_type: 'resourceType', resource: '$' };
        a.filled.push('columns id, resource_type, resource (the FHIR JSON)');
      }
      if (a.table) {
        a.config.table = a.table;
        a.filled.push(`table ${a.table}`);
      } else a.missing.push('table: the request names no table');
      if (/\bupsert|\bupdate existing\b/.test(a.lower)) {
        a.config.mode = 'upsert';
        a.config.conflict_columns = ['id'];
      }
    },
  },
  ports: () => ({
    inputs: [{ name: 'rows', type: 'any', description: 'A list of row objects, or one object' }],
    outputs: [{ name: 'result', type: 'json', description: '{table, mode, written, skipped}' }],
  }),
  ui: {
    order: ['connector', 'table', 'mode', 'conflict_columns', 'columns', 'timeout_ms'],
    fields: {
      connector: { title: 'Connector', widget: 'connector', connectorType: 'postgres' },
      conflict_columns: { title: 'Key columns', widget: 'json' },
      columns: { title: 'Column mapping', widget: 'json' },
    },
  },
  errors: {
    CONNECTOR_REQUIRED: 'no `connector` is set, or it has no valid connection string',
    CONNECTOR_NOT_FOUND: 'the organization has no connector of that id or name',
    CONNECTOR_TYPE_MISMATCH: 'the connector is not a postgres connector',
    TABLE_REQUIRED: 'no `table` is set',
    INVALID_ROWS: 'the input is not an object or a list of objects, or rows have different fields',
    TOO_MANY_ROWS: 'more than 50,000 rows in one write',
    MAPPING_FAILED: 'a `columns` expression failed on a row',
    POSTGRES_ERROR: 'the database refused the write (unknown column, constraint, type…); nothing was written',
    POSTGRES_TIMEOUT: 'the write ran longer than `timeout_ms`; nothing was written',
    POSTGRES_UNREACHABLE: 'the database could not be reached or refused the login',
    OUTBOUND_REFUSED: 'the database’s address is internal and OUTBOUND_ALLOW does not allow it',
  },
});
