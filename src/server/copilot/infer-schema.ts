import { createCompoundSchema } from 'genson-js';
import { compileSchema } from '@/engine/lib/json-schema';
import { AppError } from '@/server/errors';

/**
 * A JSON Schema (draft-07) that every sample fits, by genson-js: types merged across samples (integer within
 * number), a field required when every sample has it, array items from every element. Each sample is checked
 * against the result with the validator the JSON Schema node uses.
 */
export function inferSchema(samples: unknown[], title?: string): { schema: Record<string, unknown>; fits: boolean } {
  const inferred = createCompoundSchema(samples) as Record<string, unknown>;
  const schema = { $schema: 'http://json-schema.org/draft-07/schema#', ...(title ? { title } : {}), ...inferred };
  let validate: ReturnType<typeof compileSchema>;
  try {
    validate = compileSchema(schema);
  } catch (e) {
    // a key no schema can name (a lone UTF-16 surrogate) makes the validator's compiler throw
    throw new AppError('VALIDATION_FAILED', `The samples cannot be described by a JSON Schema: ${(e as Error).message}.`, [
      { path: 'samples', message: 'keys must be well-formed Unicode' },
    ]);
  }
  return { schema, fits: samples.every((s) => validate(s)) };
}
