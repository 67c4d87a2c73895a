import { describe, expect, it } from 'vitest';
import { jsonataTokens } from './jsonata-language';

const pairs = (text: string) => jsonataTokens(text).map((t) => [t.text, t.type]);

describe('jsonataTokens', () => {
  it('tells paths, strings, numbers, operators and keywords apart', () => {
    expect(pairs('entry.resource[resourceType = "Patient" and n >= 2.5e1].`meta-data`')).toEqual([
      ['entry', 'propertyName'],
      ['.', 'operator'],
      ['resource', 'propertyName'],
      ['[', 'bracket'],
      ['resourceType', 'propertyName'],
      ['=', 'operator'],
      ['"Patient"', 'string'],
      ['and', 'keyword'],
      ['n', 'propertyName'],
      ['>=', 'operator'],
      ['2.5e1', 'number'],
      [']', 'bracket'],
      ['.', 'operator'],
      ['`meta-data`', 'propertyName'],
    ]);
  });

  it('marks $function calls, $variables, $ and $$, and atoms', () => {
    expect(pairs('$x := $sum($$.a) ~> $string; $.b = true')).toEqual([
      ['$x', 'variableName'],
      [':=', 'operator'],
      ['$sum', 'variableName.function'],
      ['(', 'bracket'],
      ['$$', 'variableName.special'],
      ['.', 'operator'],
      ['a', 'propertyName'],
      [')', 'bracket'],
      ['~>', 'operator'],
      ['$string', 'variableName'],
      [';', 'punctuation'],
      ['$', 'variableName.special'],
      ['.', 'operator'],
      ['b', 'propertyName'],
      ['=', 'operator'],
      ['true', 'atom'],
    ]);
  });

  it('reads comments and strings across lines, escapes in strings, and a regex only where an operand is expected', () => {
    expect(pairs('/* a\n"b" */ "x\\"y" & \'z')).toEqual([
      ['/* a', 'comment'],
      ['"b" */', 'comment'],
      ['"x\\"y"', 'string'],
      ['&', 'operator'],
      ["'z", 'string'],
    ]);
    expect(pairs('$contains(a, /^ab+c/i) ? n / 2')).toEqual([
      ['$contains', 'variableName.function'],
      ['(', 'bracket'],
      ['a', 'propertyName'],
      [',', 'punctuation'],
      ['/^ab+c/i', 'regexp'],
      [')', 'bracket'],
      ['?', 'operator'],
      ['n', 'propertyName'],
      ['/', 'operator'],
      ['2', 'number'],
    ]);
  });
});
