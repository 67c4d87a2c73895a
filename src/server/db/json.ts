/**
 * JSON text Postgres's jsonb accepts, for any value a node or a client can produce. jsonb refuses two things
 * JSON allows: the NUL character (`\u0000`) and lone UTF-16 surrogates (`\ud800` with no partner), which
 * JSON.stringify writes as escapes. Both become U+FFFD, the replacement character, as a decoder would make of
 * them: the rest of the value is stored as it is, and a run whose output holds one still finishes and is
 * stored instead of failing its final write (and holding its organization's execution slot).
 */
export function jsonText(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  // a backslash pair is an escaped backslash, never the start of an escape: consume pairs as they come
  return text.includes('\\u') ? text.replace(UNSTORABLE, (m, pair: string | undefined) => (pair ? m : '\\ufffd')) : text;
}

const UNSTORABLE = /(\\\\)|\\u(?:0000|d[89a-f][0-9a-f]{2})/gi;
