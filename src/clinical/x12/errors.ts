import type { X12Issue, X12Position } from './types';

/** Text that cannot be read as X12 at all (`X12_INVALID`), with where it went wrong. */
export class X12Error extends Error {
  readonly code = 'X12_INVALID';
  constructor(
    message: string,
    readonly position?: X12Position,
  ) {
    super(position ? `${message} (line ${position.line}, column ${position.column}, segment ${position.segment})` : message);
    this.name = 'X12Error';
  }

  toIssue(): X12Issue {
    return { code: this.code, message: this.message, ...(this.position ? { position: this.position } : {}) };
  }
}

/** Line and column (1-based) of a character offset. */
export function positionAt(text: string, offset: number, segment: number): X12Position {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n' || (text[i] === '\r' && text[i + 1] !== '\n')) {
      line++;
      lineStart = i + 1;
    }
  }
  return { segment, offset, line, column: offset - lineStart + 1 };
}

/** An interchange that holds no transaction set of the kind a conversion needs (an 835 given to the 837 mapping). */
export class X12SetError extends Error {
  constructor(
    readonly expected: string,
    readonly found: string[],
  ) {
    super(`The interchange holds no ${expected} transaction set (it has ${found.length ? [...new Set(found)].join(', ') : 'none'})`);
    this.name = 'X12SetError';
  }
}
