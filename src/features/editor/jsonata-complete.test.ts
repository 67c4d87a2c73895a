import { describe, expect, it } from 'vitest';
import { jsonataCompletions } from './jsonata-complete';

const bundle = {
  resourceType: 'Bundle',
  entry: [
    { fullUrl: 'urn:1', resource: { resourceType: 'Patient', id: 'p1', name: [{ family: 'Kshlerin', given: ['Aaron'] }] } },
    { fullUrl: 'urn:2', resource: { resourceType: 'Condition', id: 'c1', code: { text: 'Asthma' } } },
  ],
  'meta-data': { source: 'ehr' },
};

/** The labels offered with the cursor at `|`. */
function labels(marked: string, input: unknown = bundle, explicit = false): string[] | null {
  const pos = marked.indexOf('|');
  const result = jsonataCompletions(marked.replace('|', ''), pos, input, explicit);
  return result ? result.options.map((o) => o.label) : null;
}

describe('jsonataCompletions: fields of the input', () => {
  it('offers the keys under a path after a dot, arrays flattened and keys of every item merged', () => {
    expect(labels('entry.resource.|')).toEqual(['resourceType', 'id', 'name', 'code']);
    expect(labels('entry.|')).toEqual(['fullUrl', 'resource']);
    expect(labels('entry.resource.name.|')).toEqual(['family', 'given']);
  });

  it('starts the completion at the word being typed, and says what kind each field is with a sample', () => {
    const result = jsonataCompletions('entry.resource.na', 17, bundle);
    expect(result?.from).toBe(15);
    expect(result?.options.find((o) => o.label === 'name')).toMatchObject({
      type: 'property',
      detail: 'array(1)',
      info: '[{"family":"Kshlerin","given":["Aaron"]}]',
    });
  });

  it('offers the top-level fields for a word, quoting names JSONata cannot read bare', () => {
    expect(labels('ent|')).toEqual(['resourceType', 'entry', '`meta-data`']);
    expect(labels('$sum(1) + |')).toBeNull(); // nothing typed, not asked for
    expect(labels('$sum(1) + |', bundle, true)).toEqual(['resourceType', 'entry', '`meta-data`']);
    expect(labels('`meta-data`.|')).toEqual(['source']);
  });

  it('skips predicates and indexes on the way, and looks inside each item within a predicate or a mapped block', () => {
    expect(labels('entry[0].resource[resourceType = "Patient"].|')).toEqual(['resourceType', 'id', 'name', 'code']);
    expect(labels('entry[resource.|')).toEqual(['resourceType', 'id', 'name', 'code']);
    expect(labels('entry.resource[na|')).toEqual(['resourceType', 'id', 'name', 'code']);
    expect(labels('entry.resource.{"who": name.|')).toEqual(['family', 'given']);
    expect(labels('entry.({"u": ful|')).toEqual(['fullUrl', 'resource']);
  });

  it('reads $ and $$ as the input, and an array or object constructor keeps the outer context', () => {
    expect(labels('$.|')).toEqual(['resourceType', 'entry', '`meta-data`']);
    expect(labels('$$.entry.|')).toEqual(['fullUrl', 'resource']);
    expect(labels('[entry.|')).toEqual(['fullUrl', 'resource']);
    expect(labels('{"a": entry.|')).toEqual(['fullUrl', 'resource']);
  });

  it('offers nothing inside strings and comments, under unknown values, or without an input', () => {
    expect(labels('"entry.|')).toBeNull();
    expect(labels('/* entry.| */')).toBeNull();
    expect(labels('entry.nothing.|')).toBeNull();
    expect(labels('$lookup(x).|')).toBeNull();
    expect(jsonataCompletions('entry.', 6, undefined)).toBeNull();
    expect(labels('"a.b" & entry.|')).toEqual(['fullUrl', 'resource']);
  });
});

describe('jsonataCompletions: functions and variables', () => {
  it('offers the standard library after $, with signature and description', () => {
    const result = jsonataCompletions('$su', 3, undefined);
    expect(result?.from).toBe(0);
    expect(result?.options.find((o) => o.label === '$sum')).toEqual({
      label: '$sum',
      type: 'function',
      detail: '(array)',
      info: 'Sum of an array of numbers.',
    });
    for (const name of ['$count', '$map', '$filter', '$string', '$substring', '$now', '$toMillis', '$merge', '$lookup']) {
      expect(result?.options.map((o) => o.label)).toContain(name);
    }
  });

  it('offers the variables the expression binds, first, but not the one being typed', () => {
    const text = '($total := $sum(x); $f := function($v, $i) { $v }; $';
    const options = jsonataCompletions(text, text.length, bundle)!.options;
    expect(options.slice(0, 4).map((o) => [o.label, o.type])).toEqual([
      ['$total', 'variable'],
      ['$f', 'variable'],
      ['$v', 'variable'],
      ['$i', 'variable'],
    ]);
    expect(labels('$tot|')?.filter((l) => l === '$tot')).toEqual([]);
  });
});
