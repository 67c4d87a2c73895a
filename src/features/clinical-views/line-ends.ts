/**
 * Line ends of pasted messages. HL7 v2 ends segments with CR, X12 often with nothing or LF; a browser textarea
 * turns every CR and CRLF into LF. The message fields of the run dialog keep the text with the line ends it was
 * pasted with (or the ones picked), so a test run gets the message as the feed would send it.
 */
export type LineEnd = '\r' | '\n' | '\r\n';

export const LINE_END_LABEL: Record<LineEnd, string> = { '\r': 'CR (HL7 v2)', '\n': 'LF', '\r\n': 'CRLF' };

/** The first line end of a text, or null when it has none. */
export function lineEndOf(text: string): LineEnd | null {
  const at = text.search(/[\r\n]/);
  if (at < 0) return null;
  if (text[at] === '\n') return '\n';
  return text[at + 1] === '\n' ? '\r\n' : '\r';
}

/** The text as a textarea holds it: every line end LF. */
export function forTextarea(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** Every line end of the text made `end`. */
export function withLineEnds(text: string, end: LineEnd): string {
  return text.replace(/\r\n|\r|\n/g, end);
}

/** `text` with `inserted` in place of [start, end) of its textarea form, all with line ends `lineEnd`. */
export function pasteInto(text: string, start: number, end: number, inserted: string, lineEnd: LineEnd): string {
  const shown = forTextarea(text);
  return withLineEnds(shown.slice(0, start) + forTextarea(inserted) + shown.slice(end), lineEnd);
}
