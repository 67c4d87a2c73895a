import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inferSchema } from './infer-schema';

const patients = readFileSync(path.resolve(import.meta.dirname, '../../../../shared/data/synthea-10/Patient.000.ndjson'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .slice(0, 5)
  .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('JSON Schema from samples', () => {
  it('merges types across samples and requires only what every sample has', () => {
    const { schema, fits } = inferSchema(
      [
        { mrn: 'A1', age: 40, tags: ['x'] },
        { mrn: 'B2', age: 41.5 },
      ],
      'Row',
    );
    expect(schema).toMatchObject({
      title: 'Row',
      type: 'object',
      required: ['mrn', 'age'],
      properties: { mrn: { type: 'string' }, age: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } } },
    });
    expect(fits).toBe(true);
  });

  it('describes real Synthea Patient resources, and each of them fits', () => {
    const { schema, fits } = inferSchema(patients);
    expect(fits).toBe(true);
    expect(schema.required as string[]).toEqual(expect.arrayContaining(['resourceType', 'id', 'name', 'gender', 'birthDate']));
  });

  it('refuses samples whose keys no schema can name', () => {
    expect(() => inferSchema([{ '\ud800': 1 }])).toThrow(/cannot be described by a JSON Schema/);
  });
});
