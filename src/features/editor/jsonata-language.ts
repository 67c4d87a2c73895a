import { HighlightStyle, StreamLanguage, StringStream, syntaxHighlighting, type StreamParser } from '@codemirror/language';
import { tags as t } from '@lezer/highlight';

/**
 * JSONata as a CodeMirror stream language: strings, numbers, comments, regexes, `$functions(`, `$variables`,
 * keywords, operators and field names (plain and `backtick quoted`). Token names are CodeMirror's tag
 * names (`variableName.function` = the function modifier on variableName).
 */
export type JsonataToken =
  | 'string'
  | 'number'
  | 'comment'
  | 'regexp'
  | 'variableName'
  | 'variableName.function'
  | 'variableName.special'
  | 'keyword'
  | 'atom'
  | 'operator'
  | 'propertyName'
  | 'bracket'
  | 'punctuation';

interface State {
  /** Inside a block comment that goes on past the line. */
  comment: boolean;
  /** Inside a string that goes on past the line: its quote. */
  quote: string | null;
  /** The last token could end an operand: a `/` after it divides, elsewhere it starts a regex. */
  operand: boolean;
}

const KEYWORDS = new Set(['and', 'or', 'in', 'function']);
const ATOMS = new Set(['true', 'false', 'null']);
const OPERATORS = /^(?::=|~>|!=|<=|>=|\.\.|\*\*|[-+*/%&=<>!?:~^@#|.])/;

function readString(stream: StringStream, state: State, quote: string): JsonataToken {
  let escaped = false;
  let ch: string | void;
  while ((ch = stream.next()) != null) {
    if (ch === quote && !escaped) {
      state.quote = null;
      return quote === '`' ? 'propertyName' : 'string';
    }
    escaped = !escaped && ch === '\\';
  }
  state.quote = quote;
  return quote === '`' ? 'propertyName' : 'string';
}

function readComment(stream: StringStream, state: State): JsonataToken {
  state.comment = !stream.match(/^.*?\*\//);
  if (state.comment) stream.skipToEnd();
  return 'comment';
}

function token(stream: StringStream, state: State): JsonataToken | null {
  if (state.comment) return readComment(stream, state);
  if (state.quote) return readString(stream, state, state.quote);
  if (stream.eatSpace()) return null;
  const operand = state.operand;
  state.operand = false;
  if (stream.match('/*')) return readComment(stream, state);
  const ch = stream.peek()!;
  if (ch === '"' || ch === "'" || ch === '`') {
    stream.next();
    state.operand = true;
    return readString(stream, state, ch);
  }
  if (stream.match(/^(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w$])/)) {
    state.operand = true;
    return 'number';
  }
  if (ch === '$') {
    state.operand = true;
    if (stream.match(/^\$[A-Za-z_][\w]*/)) return stream.match(/^\s*\(/, false) ? 'variableName.function' : 'variableName';
    stream.match(/^\$\$?/);
    return 'variableName.special';
  }
  if (!operand && ch === '/' && stream.match(/^\/(?:[^/\\]|\\.)+\/[im]*/)) {
    state.operand = true;
    return 'regexp';
  }
  if (stream.match(/^[A-Za-z_\u00C0-\uFFFF][\w\u00C0-\uFFFF]*/)) {
    const word = stream.current();
    if (KEYWORDS.has(word)) return 'keyword';
    state.operand = true;
    return ATOMS.has(word) ? 'atom' : 'propertyName';
  }
  if (/[()[\]{}]/.test(ch)) {
    stream.next();
    state.operand = ch === ')' || ch === ']' || ch === '}';
    return 'bracket';
  }
  if (stream.match(OPERATORS)) return 'operator';
  stream.next();
  return 'punctuation';
}

export const jsonataParser: StreamParser<State> = {
  name: 'jsonata',
  startState: () => ({ comment: false, quote: null, operand: false }),
  copyState: (s) => ({ ...s }),
  token,
  languageData: { closeBrackets: { brackets: ['(', '[', '{', '"', "'", '`'] }, commentTokens: { block: { open: '/*', close: '*/' } } },
};

export const jsonataLanguage = StreamLanguage.define(jsonataParser);

/** The tokens of a text as the editor colours them, with their offsets (for tests and for the completions). */
export function jsonataTokens(text: string): { text: string; type: JsonataToken; from: number }[] {
  const state = jsonataParser.startState!(2);
  const out: { text: string; type: JsonataToken; from: number }[] = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    const stream = new StringStream(line, 2, 2);
    while (!stream.eol()) {
      const type = jsonataParser.token(stream, state) as JsonataToken | null;
      if (type) out.push({ text: stream.current(), type, from: offset + stream.start });
      stream.start = stream.pos;
    }
    offset += line.length + 1;
  }
  return out;
}

/** Colours in the app's palette (slate, teal, amber…), readable on white. */
export const jsonataHighlight = syntaxHighlighting(
  HighlightStyle.define([
    { tag: t.string, color: '#047857' },
    { tag: t.number, color: '#b45309' },
    { tag: t.atom, color: '#b45309' },
    { tag: t.comment, color: '#94a3b8', fontStyle: 'italic' },
    { tag: t.regexp, color: '#be185d' },
    { tag: t.function(t.variableName), color: '#6d28d9', fontWeight: '600' },
    { tag: t.variableName, color: '#0e7490' },
    { tag: t.special(t.variableName), color: '#0e7490', fontWeight: '600' },
    { tag: t.keyword, color: '#9333ea' },
    { tag: t.operator, color: '#64748b' },
    { tag: t.propertyName, color: '#0f172a' },
    { tag: t.bracket, color: '#475569' },
  ]),
);
