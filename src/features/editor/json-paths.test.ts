import { describe, expect, it } from 'vitest';
import { fieldsAt, pathsOf } from './json-paths';

describe('pathsOf', () => {
  it('lists the JSONata path of every leaf, arrays by their first item, odd keys quoted', () => {
    const patient = { resourceType: 'Patient', name: [{ family: 'Kshlerin', given: ['Aaron'] }], 'us-core-race': true, extension: [] };
    expect(pathsOf(patient)).toEqual([
      { path: 'resourceType', sample: '"Patient"' },
      { path: 'name[0].family', sample: '"Kshlerin"' },
      { path: 'name[0].given[0]', sample: '"Aaron"' },
      { path: '`us-core-race`', sample: 'true' },
    ]);
  });

  it('stops at 80 paths and 6 levels, and has none for a plain value', () => {
    const wide = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`f${i}`, i]));
    expect(pathsOf(wide)).toHaveLength(80);
    const deep = { a: { b: { c: { d: { e: { f: { g: { h: 1 } } } } } } } };
    expect(pathsOf(deep)).toEqual([]);
    expect(pathsOf('text')).toEqual([]);
  });
});

describe('fieldsAt', () => {
  it('merges the keys found under a path, arrays flattened as JSONata steps do, with kind and sample', () => {
    const bundle = { entry: [{ resource: { id: 'a', name: [{ family: 'K' }] } }, { resource: { id: 'b', code: null } }] };
    expect(fieldsAt(bundle, ['entry', 'resource'])).toEqual([
      { key: 'id', kind: 'string', sample: '"a"' },
      { key: 'name', kind: 'array(1)', sample: '[{"family":"K"}]' },
      { key: 'code', kind: 'null', sample: 'null' },
    ]);
    expect(fieldsAt(bundle, ['entry', 'resource', 'name'])).toEqual([{ key: 'family', kind: 'string', sample: '"K"' }]);
    expect(fieldsAt(bundle, ['nothing'])).toEqual([]);
    expect(fieldsAt('text', [])).toEqual([]);
  });
});
