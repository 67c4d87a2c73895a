import { createCompoundSchema } from 'genson-js';
import { compileSchema } from '@/engine/lib/json-schema';

/**
 * A JSON Schema (draft-07) that every sample fits, by genson-js: types merged across samples (integer within
 * number), a field required when every sample has it, array items from every element. Each sample is checked
 * against the result with the validator the json-schema-validate node uses.
 */
export function inferSchema(samples: unknown[], title?: string): { schema: Record<string, unknown>; fits: boolean } {
  const inferred = createCompoundSchema(samples) as Record<string, unknown>;
  const schema = { $schema: 'http://json-schema.org/draft-07/schema#', ...(title ? { title } : {}), ...inferred };
  const validate = compileSchema(schema);
  return { schema, fits: samples.every((s) => validate(s)) };
}
