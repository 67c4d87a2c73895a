import { deflateRawSync } from 'node:zlib';
import { jsonText } from '@/server/db/json';
import { DEFLATE_FROM, inflatedText } from './stored-inputs';

/**
 * A node record's inputs, outputs and emitted value as stored (issue 27): in `inputs`, `outputs` and `emit` (jsonb) when
 * small, else deflated by the application in `payloads_z` (bytea, raw deflate of the JSON text
 * {"inputs":…,"outputs":…[,"emit":…]}; `inputs` and `outputs` are then '{}', `emit` null). Under the `full` policy a
 * feed message's records held ~60 KB of jsonb: Postgres parsed every byte of it into jsonb and compressed it again
 * (pglz) — an ADT bundle of 54 KB took ~0.9 ms of its CPU to store that way, and ~0.02 ms as the 10 KB this makes of
 * it. Every write of a record goes through `recordText`, every read through `withPayloads`, every statement that drops
 * payloads sets `payloads_z` to null with them. An execution's outputs (what its pipeline-output nodes gave) follow the
 * same rule in `executions.outputs_z` (`packOutputs`, `withOutputs`).
 */

/**
 * zlib's level 1: an ADT bundle of 54 KB becomes ~10.1 KB in ~90 µs, against ~8.6 KB in ~300 µs at level 6 (node:zlib,
 * one core). The feed's process writes every record it runs; a trigger's input, written once and small, takes level 6
 * (stored-inputs.ts).
 */
const LEVEL = 1;

/** A record to store: its inputs, outputs and emitted value (a pipeline-output's), and the other columns as they are. */
interface Storable {
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  emit?: unknown;
}

/**
 * The JSON text of a record as the upsert reads it (node-records.ts), and the bytes it stores: its payloads in place when
 * their JSON is small or hardly compresses, else `payloads_z` (base64 in the text: Postgres decodes it) and empty ones.
 * Each value is serialized once either way.
 */
export function recordText(record: Storable): { text: string; bytes: number } {
  const { inputs, outputs, emit, ...rest } = record;
  // the emitted value is the value the output node received (its input, stored as a reference): text of its own here
  const emitted = emit === undefined || emit === null ? '' : `,"emit":${jsonText(emit)}`;
  const payloads = `{"inputs":${jsonText(inputs)},"outputs":${jsonText(outputs)}${emitted}}`;
  // the other fields after the payloads' (the record always has some: its node id)
  const others = jsonText(rest).slice(1);
  const z = deflated(payloads);
  if (z) {
    const b64 = z.toString('base64');
    const text = `{"inputs":{},"outputs":{},"payloads_z":"${b64}",${others}`;
    return { text, bytes: text.length - b64.length + z.length };
  }
  const text = `${payloads.slice(0, -1)},${others}`;
  return { text, bytes: text.length };
}

/**
 * JSON text as stored deflated, or null when it stays JSON: under 1 KB, or hardly compressing (data compressed already:
 * nothing to gain for the inflate it would cost).
 */
export function deflated(json: string): Buffer | null {
  if (json.length < DEFLATE_FROM) return null;
  const utf8 = Buffer.from(json);
  const z = deflateRawSync(utf8, { level: LEVEL });
  return z.length < utf8.length * 0.9 ? z : null;
}

/** An execution's outputs as its end stores them (`json` null when `outputs_z` holds them): the same rule as a record's. */
export function packOutputs(json: string): { json: string | null; z: Buffer | null } {
  const z = deflated(json);
  return z ? { json: null, z } : { json, z: null };
}

/** An executions row read with `outputsZ`, its outputs in place (and `outputsZ` null). */
export function withOutputs<R extends { outputs: Record<string, unknown> | null; outputsZ?: Uint8Array | null }>(row: R): R {
  if (!row.outputsZ?.length) return row;
  return { ...row, outputs: JSON.parse(inflatedText(row.outputsZ)) as Record<string, unknown>, outputsZ: null };
}

/** A row read with `payloadsZ`, its inputs, outputs and emitted value in place (`payloadsZ` null: what it held is in them now). */
export function withPayloads<R extends { inputs: Record<string, unknown>; outputs: Record<string, unknown>; emit?: unknown; payloadsZ?: Uint8Array | null }>(
  row: R,
): R {
  if (!row.payloadsZ?.length) return row;
  const { inputs, outputs, emit } = JSON.parse(inflatedText(row.payloadsZ)) as Storable;
  return { ...row, inputs, outputs, ...(emit === undefined ? {} : { emit }), payloadsZ: null };
}

/** Bytes the stored payloads take (`n` names the execution_nodes row), for the statements that count stored bytes. */
export const payloadColumnBytes = (n: string): string =>
  `pg_column_size(${n}.inputs) + pg_column_size(${n}.outputs) + coalesce(pg_column_size(${n}.payloads_z), 0)`;
