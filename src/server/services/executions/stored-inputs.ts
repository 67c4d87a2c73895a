import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { sql, type SQL } from 'drizzle-orm';
import { jsonText } from '@/server/db/json';
import { executions } from '@/server/db/schema';

/**
 * The trigger's input of an execution as stored (issue 27): its JSON in `inputs` (jsonb) when small, else deflated
 * by the application in `inputs_z` (bytea, raw deflate of the JSON text; `inputs` is then '{}'). A received HL7
 * message of ~5 KB was ~3.2 KB of TOAST as jsonb (pglz), ~2.45 KB deflated. Every write of an execution's input goes
 * through `packInputs`, every read through `unpackInputs` (or `withInputs` for a whole row), every statement that
 * drops it sets both columns (`DROP_INPUTS`): so no reader sees the '{}' left in place of a deflated input.
 */

/** JSON text below this many bytes stays jsonb: deflate gains little on it, and Postgres stores it in the row as it is. */
export const DEFLATE_FROM = 1024;

/**
 * zlib's level 6 (its default): on the ADT samples 2,455 B a message in ~250 µs, against 2,514 B in ~190 µs at
 * level 1 and 2,454 B in ~270 µs at 9 (node:zlib, one core): the bytes are kept for as long as the run is.
 */
const LEVEL = 6;

export interface PackedInputs {
  /** The jsonb text to store in `inputs`: the input's JSON, or '{}' when it is in `z`. */
  json: string;
  /** The deflated JSON text, or null when the input is stored as jsonb. */
  z: Buffer | null;
}

/** An execution's input as its admission stores it. */
export function packInputs(inputs: Record<string, unknown>): PackedInputs {
  const json = jsonText(inputs);
  if (json.length < DEFLATE_FROM) return { json, z: null };
  const z = deflateRawSync(json, { level: LEVEL });
  // an input that hardly compresses (already compressed data) stays jsonb: nothing to gain for the inflate it costs
  return z.length < json.length * 0.9 ? { json: '{}', z } : { json, z: null };
}

/** A row's `inputs` and `inputs_z` back as the input: the deflated one when there is one. */
export function unpackInputs(inputs: Record<string, unknown> | null | undefined, z: Uint8Array | null | undefined): Record<string, unknown> {
  if (z && z.length > 0) return JSON.parse(inflatedText(z)) as Record<string, unknown>;
  return inputs ?? {};
}

/** The JSON text of a deflated input. */
export const inflatedText = (z: Uint8Array): string => inflateRawSync(z).toString('utf8');

/** A row read with both columns, its input in place (and `inputsZ` null: what it held is in `inputs` now). */
export function withInputs<R extends { inputs: Record<string, unknown>; inputsZ?: Uint8Array | null }>(row: R): R {
  return row.inputsZ ? { ...row, inputs: unpackInputs(row.inputs, row.inputsZ), inputsZ: null } : row;
}

/** The SQL `set` items that drop an execution's input (both columns), for a statement over `executions`. */
export const DROP_INPUTS: SQL = sql.raw(`inputs = '{}'::jsonb, inputs_z = null`);

/** Bytes the stored input takes (`e` names the executions row), for the statements that count stored bytes. */
export const inputColumnBytes = (e: string): string => `pg_column_size(${e}.inputs) + coalesce(pg_column_size(${e}.inputs_z), 0)`;

/** The columns a drizzle select names to read an execution's input: `{ inputs, inputsZ }` for `unpackInputs`/`withInputs`. */
export const inputColumns = { inputs: executions.inputs, inputsZ: executions.inputsZ };
