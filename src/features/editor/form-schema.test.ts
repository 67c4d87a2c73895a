import validator from '@rjsf/validator-ajv8';
import { describe, expect, it } from 'vitest';
import { configSchema } from '@/engine/node-docs';
import { NODE_DESCRIPTORS } from '@/engine/nodes/descriptors';
import { validateDefinition } from '@/engine/validate';
import { getNodeType } from '@/engine/nodes';
import { jsonKindOf, parseJsonOf, plainFormError, prepareFormSchema, renameNewKeys } from './form-schema';
import { pretty } from '@/components/json-view';

// every node's documented example config, as its config form gets it and as validation gets it
describe.each(NODE_DESCRIPTORS.map((d) => [d.id, d] as const))('the documented example of %s', (id, d) => {
  const schema = prepareFormSchema(configSchema(d));
  const example = d.example as Record<string, unknown>;

  it('is taken by its form: the form validator finds nothing, and each field edited as JSON reads it back', () => {
    const { errors } = validator.validateFormData(example, schema);
    expect(errors.map((e) => `${e.property} ${e.message}`)).toEqual([]);
    for (const [name, p] of Object.entries(schema.properties ?? {})) {
      if (typeof p !== 'object' || (p as Record<string, unknown>)['x-widget'] !== 'json' || example[name] === undefined) continue;
      // what the JSON editor shows is the example, pretty-printed; what it gives back is the same value
      expect(parseJsonOf(jsonKindOf(p), pretty(example[name])), `${id}.${name}`).toEqual({ value: example[name] });
    }
  });

  it('passes validation in a pipeline', () => {
    const trigger = d.trigger ? [] : [{ id: 'start', type: 'manual-trigger', config: {} }];
    const report = validateDefinition({ nodes: [...trigger, { id: 'node', type: id, config: example }], connections: [] }, getNodeType);
    expect(report.errors.filter((e) => e.code === 'INVALID_CONFIG').map((e) => e.message)).toEqual([]);
  });
});

describe('form messages', () => {
  const d = NODE_DESCRIPTORS.find((n) => n.id === 'fhir-deidentify')!;
  const schema = prepareFormSchema(configSchema(d));

  it('say what to enter, by the field label', () => {
    const { errors } = validator.validateFormData({ ...(d.example as object), date_shift_days: 0, rules: {} }, schema);
    const plain = errors.map((e) => plainFormError(e, schema).stack);
    expect(plain).toContain('Date shift days: Enter 1 or more');
    expect(plain).toContain('Rules: Enter a list');
  });

  it('name a new map entry "field", never "newKey"', () => {
    const renamed = renameNewKeys({ fields: { message: 'text', newKey: 'any', 'newKey-1': 'any' } });
    expect(renamed).toEqual({ fields: { message: 'text', field: 'any', field_2: 'any' } });
  });
});
