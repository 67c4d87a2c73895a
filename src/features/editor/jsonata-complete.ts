import { fieldsAt, jsonataName } from './json-paths';
import { JSONATA_FUNCTIONS } from './jsonata-functions';
import { jsonataTokens } from './jsonata-language';

/**
 * What the JSONata editor offers at the cursor: after `$`, the standard library's functions and the
 * variables the expression binds; elsewhere, the fields of the sample input at the path being typed
 * (`entry.resource.` → the keys under it), scoped by the predicate, block or object constructor the
 * cursor is in (`entry[resource.|]` looks inside each entry).
 */
export interface JsonataOption {
  label: string;
  type: 'property' | 'function' | 'variable';
  detail?: string;
  info?: string;
}

export interface JsonataCompletion {
  from: number;
  options: JsonataOption[];
}

/** The text with strings, comments and regexes blanked out (same length), so brackets in them do not count. */
function masked(text: string): string {
  const chars = text.split('');
  for (const tok of jsonataTokens(text)) {
    if (tok.type === 'string' || tok.type === 'comment' || tok.type === 'regexp') {
      for (let i = tok.from; i < tok.from + tok.text.length; i++) if (chars[i] !== '\n') chars[i] = ' ';
    }
  }
  return chars.join('');
}

/** Whether the cursor is inside a string, comment or regex (nothing is offered there). */
function inLiteral(text: string, pos: number): boolean {
  return jsonataTokens(text.slice(0, pos)).some(
    (t) => (t.type === 'string' || t.type === 'comment' || t.type === 'regexp') && t.from + t.text.length >= pos && !isClosed(t.text, t.type),
  );
}

function isClosed(token: string, type: string): boolean {
  if (type === 'comment') return token.length >= 4 && token.endsWith('*/');
  if (type === 'regexp') return true;
  return token.length >= 2 && token.endsWith(token[0]!) && !token.endsWith(`\\${token[0]}`);
}

function skipSpaceBack(text: string, i: number): number {
  while (i > 0 && /\s/.test(text[i - 1]!)) i--;
  return i;
}

const RESERVED = new Set(['and', 'or', 'in', 'function', 'true', 'false', 'null']);
const OPEN: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

/** Where the bracket group that closes just before `end` opens, or -1. */
function groupStart(text: string, end: number): number {
  let depth = 0;
  for (let i = end - 1; i >= 0; i--) {
    const c = text[i]!;
    if (c in OPEN) depth++;
    else if (c === '(' || c === '[' || c === '{') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** A path read backwards from `end` (exclusive): its field names and where it starts, or null when no field path ends there. */
type Path = { steps: string[]; start: number; root: boolean };

function pathEndingAt(text: string, end: number): Path | null {
  const steps: string[] = [];
  let i = skipSpaceBack(text, end);
  for (;;) {
    while (text[i - 1] === ']') {
      const open = groupStart(text, i);
      if (open < 0) return null;
      i = skipSpaceBack(text, open);
    }
    const before = text.slice(0, i);
    const quoted = /`([^`]*)`$/.exec(before);
    const name = quoted ?? /[A-Za-z_\u00C0-\uFFFF][\w\u00C0-\uFFFF]*$/.exec(before);
    const variable = /\$\$?$/.exec(before) ?? /\$[A-Za-z_]\w*$/.exec(before);
    if (name && !quoted && RESERVED.has(name[0])) return null;
    if (name && !/[$\w]/.test(before[name.index - 1] ?? '')) {
      steps.unshift(quoted ? quoted[1]! : name[0]);
      i = name.index;
    } else if (variable && (variable[0] === '$' || variable[0] === '$$')) {
      return { steps, start: variable.index, root: true };
    } else {
      return null; // a function call, a block, a variable: its value is not known here
    }
    const dot = skipSpaceBack(text, i);
    if (text[dot - 1] !== '.' || text[dot - 2] === '.') return { steps, start: i, root: false };
    i = skipSpaceBack(text, dot - 1);
  }
}

/**
 * The values a position evaluates against: the input, or the values of the path whose predicate
 * (`path[…]`), mapped block (`path.(…)`) or mapped object (`path.{…}`) it is in.
 */
function contextAt(text: string, input: unknown, pos: number): unknown {
  let depth = 0;
  for (let i = pos - 1; i >= 0; i--) {
    const c = text[i]!;
    if (c in OPEN) depth++;
    else if (c === '(' || c === '[' || c === '{') {
      if (depth > 0) {
        depth--;
        continue;
      }
      const before = skipSpaceBack(text, i);
      const mapped = c === '[' ? before : text[before - 1] === '.' ? before - 1 : -1;
      if (mapped < 0) continue; // an object constructor, a call, a plain block: same context
      const values = valuesOf(text, input, mapped);
      if (values === undefined && c === '[') continue; // an array constructor
      return values ?? null;
    }
  }
  return input;
}

/** The values of the path that ends at `end`, flattened into one array; undefined when it is not a field path. */
function valuesOf(text: string, input: unknown, end: number): unknown[] | undefined {
  const path = pathEndingAt(text, end);
  if (!path || path.steps.length === 0) return undefined;
  const base = path.root ? input : contextAt(text, input, path.start);
  const values: unknown[] = [];
  collect(base, path.steps, values);
  return values;
}

function collect(value: unknown, steps: readonly string[], out: unknown[]): void {
  if (Array.isArray(value)) return value.forEach((v) => collect(v, steps, out));
  if (steps.length === 0) return void out.push(value);
  if (value && typeof value === 'object') collect((value as Record<string, unknown>)[steps[0]!], steps.slice(1), out);
}

function fieldOptions(base: unknown, steps: string[]): JsonataOption[] {
  return fieldsAt(base, steps).map((f) => ({ label: jsonataName(f.key), type: 'property', detail: f.kind, info: f.sample }));
}

/** Variables the expression binds (`$x := …`, function parameters), but for the one being typed. */
function boundVariables(text: string, from: number, to: number): string[] {
  const rest = `${text.slice(0, from)} ${text.slice(to)}`;
  const names = new Set<string>();
  for (const m of rest.matchAll(/\$([A-Za-z_]\w*)\s*:=/g)) names.add(m[1]!);
  for (const m of rest.matchAll(/function\s*\(([^)]*)\)/g)) for (const p of m[1]!.matchAll(/\$([A-Za-z_]\w*)/g)) names.add(p[1]!);
  return [...names];
}

/** The completions at `pos` of `text`; `input` is the sample the expression runs on (undefined: none). */
export function jsonataCompletions(text: string, pos: number, input: unknown, explicit = false): JsonataCompletion | null {
  if (inLiteral(text, pos)) return null;
  const src = masked(text.slice(0, pos));
  const before = text.slice(0, pos);

  const dollar = /\$[A-Za-z_]?\w*$/.exec(before);
  if (dollar && before[dollar.index - 1] !== '$') {
    const vars = boundVariables(text, dollar.index, pos).map<JsonataOption>((v) => ({ label: `$${v}`, type: 'variable', detail: 'bound in this expression' }));
    const fns = JSONATA_FUNCTIONS.map<JsonataOption>((f) => ({ label: `$${f.name}`, type: 'function', detail: f.signature, info: f.description }));
    return { from: dollar.index, options: [...vars, ...fns] };
  }

  const openQuote = (src.match(/`/g)?.length ?? 0) % 2 === 1 ? src.lastIndexOf('`') : -1; // a `quoted name being typed
  const word = openQuote >= 0 ? { index: openQuote } : /[A-Za-z_\u00C0-\uFFFF][\w\u00C0-\uFFFF]*$/.exec(before);
  const from = word ? word.index : pos;
  if (input === undefined) return null;
  const dot = skipSpaceBack(src, from);
  if (src[dot - 1] === '.' && src[dot - 2] !== '.') {
    const path = pathEndingAt(src, dot - 1);
    if (!path || path.steps.length === 0) {
      if (path?.root) return { from, options: fieldOptions(input, []) }; // `$.`
      return null;
    }
    const base = path.root ? input : contextAt(src, input, path.start);
    const options = fieldOptions(base, path.steps);
    return options.length ? { from, options } : null;
  }
  if (!word && !explicit) return null;
  const options = fieldOptions(contextAt(src, input, from), []);
  return options.length ? { from, options } : null;
}
