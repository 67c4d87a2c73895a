import jsonata from 'jsonata';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { HL7_JSONATA_BINDINGS } from '@/clinical/hl7v2/access';
import { NodeError } from '../node-error';

/** Shared JSONata plumbing of the condition, switch, filter and jsonata-transform nodes. */

/** Guardrails of one evaluation: a runaway expression (infinite recursion) stops instead of hanging the worker. */
export const JSONATA_LIMITS = { timeout: 5_000, stack: 3_000 } as const;

interface JsonataFailure {
  code?: string;
  position?: number;
  token?: string;
  message?: string;
}

function describe(e: unknown): string {
  const err = (e ?? {}) as JsonataFailure;
  const message = err.message ?? String(e);
  const where = typeof err.position === 'number' ? ` (at position ${err.position}${err.token ? `, near "${err.token}"` : ''})` : '';
  return `${message}${where}${err.code ? ` [${err.code}]` : ''}`;
}

/**
 * Compiled expressions by text. Compiling costs far more than evaluating a small expression, and every
 * execution of a pipeline evaluates the same ones. A compiled expression is safe to share: each
 * `evaluate` binds its input in a frame of its own.
 */
const compiled = new LRUCache<string, jsonata.Expression>({ max: 2_000 });

/** Compiles an expression; a syntax error becomes NodeError INVALID_EXPRESSION with JSONata's message and position. */
export function compileJsonata(expression: string): jsonata.Expression {
  const hit = compiled.get(expression);
  if (hit) return hit;
  try {
    const expr = jsonata(expression, JSONATA_LIMITS);
    compiled.set(expression, expr);
    return expr;
  } catch (e) {
    throw new NodeError('INVALID_EXPRESSION', `The JSONata expression does not compile: ${describe(e)}`);
  }
}

/**
 * A config field holding a JSONata expression, checked when the config is parsed (so the validator reports it).
 * Its JSON Schema carries `x-widget: expression` wherever it sits (a switch's cases too): the editor's JSONata editor.
 */
export function jsonataField(description: string) {
  return z
    .string()
    .min(1, 'an expression is required')
    .max(20_000)
    .superRefine((expression, ctx) => {
      try {
        compileJsonata(expression);
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: (e as Error).message });
      }
    })
    .describe(description)
    .meta({ 'x-widget': 'expression' });
}

/** Evaluates a compiled expression; any failure becomes NodeError(code) with JSONata's message. */
export async function evaluateJsonata(expression: jsonata.Expression, input: unknown, code: string, bindings?: Record<string, unknown>): Promise<unknown> {
  try {
    return await expression.evaluate(input, { ...HL7_JSONATA_BINDINGS, ...bindings });
  } catch (e) {
    throw new NodeError(code, `The JSONata expression failed: ${describe(e)}`);
  }
}

/** JSONata's own truthiness ($boolean): empty string, 0, null, empty array/object, functions and "no match" are false. */
export function jsonataTruthy(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0 && !Number.isNaN(value);
  if (typeof value === 'string') return value.length > 0;
  if (typeof value === 'function') return false;
  if (Array.isArray(value)) return value.some(jsonataTruthy);
  return Object.keys(value as object).length > 0;
}

/**
 * A result as plain JSON: JSONata sequences become ordinary arrays, "no match" (undefined) becomes null,
 * and values JSON cannot hold (functions) are refused.
 */
export function toPlainJson(value: unknown, code: string): unknown {
  if (value === undefined) return null;
  if (typeof value === 'function') throw new NodeError(code, 'The expression returned a function, which is not JSON.');
  return JSON.parse(JSON.stringify(value)) as unknown;
}
