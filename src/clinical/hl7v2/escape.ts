import type { Hl7v2Delimiters } from './types';

/**
 * HL7 v2 escape sequences (v2.5 §2.7): a field's text keeps them as sent; reading a value decodes them,
 * writing one encodes them. With the usual delimiters: `\F\` `|`, `\S\` `^`, `\T\` `&`, `\R\` `~`, `\E\` `\`,
 * `\P\` `#` (v2.7 truncation), `\Xhhhh\` hexadecimal bytes, `\.br\` a line break, `\.sp n\` n line breaks,
 * `\.sk n\` n spaces; `\H\` `\N\` (highlighting) and the other formatting commands (`\.in\`, `\.ti\`, `\.ce\`,
 * `\.fi\`, `\.nf\`) leave no text. Character-set switches (`\C…\`, `\M…\`) and local escapes (`\Z…\`) cannot be
 * read without the sender's tables: they are kept as they are.
 */

const utf8 = new TextDecoder('utf-8', { fatal: true });

function hexText(hex: string): string | undefined {
  if (hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9A-Fa-f]+$/.test(hex)) return undefined;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  try {
    return utf8.decode(bytes);
  } catch {
    // not UTF-8: read the bytes as ISO 8859-1, the usual single-byte set of v2 feeds
    return String.fromCharCode(...bytes);
  }
}

function count(arg: string): number {
  const n = Number.parseInt(arg.trim() || '1', 10);
  return Number.isFinite(n) && n > 0 ? Math.min(n, 100) : 1;
}

function sequence(body: string, d: Hl7v2Delimiters): string | undefined {
  switch (body) {
    case 'F':
      return d.field;
    case 'S':
      return d.component;
    case 'T':
      return d.subcomponent;
    case 'R':
      return d.repetition;
    case 'E':
      return d.escape;
    case 'P':
      return d.truncation || undefined;
    case 'H':
    case 'N':
      return '';
  }
  if (body.startsWith('X')) return hexText(body.slice(1));
  if (body.startsWith('.')) {
    const command = body.slice(1, 3);
    const arg = body.slice(3);
    if (command === 'br') return '\n';
    if (command === 'sp') return '\n'.repeat(count(arg));
    if (command === 'sk') return ' '.repeat(count(arg));
    if (['in', 'ti', 'ce', 'fi', 'nf'].includes(command)) return '';
  }
  return undefined;
}

/** The text a raw value stands for: escape sequences decoded (see above). */
export function decode(raw: string, d: Hl7v2Delimiters): string {
  const esc = d.escape;
  if (!esc || raw.indexOf(esc) < 0) return raw;
  let out = '';
  let i = 0;
  while (i < raw.length) {
    const start = raw.indexOf(esc, i);
    if (start < 0) break;
    const end = raw.indexOf(esc, start + 1);
    if (end < 0) break;
    const decoded = sequence(raw.slice(start + 1, end), d);
    if (decoded === undefined) {
      // unknown or unreadable: keep the sequence as sent
      out += raw.slice(i, end + 1);
    } else {
      out += raw.slice(i, start) + decoded;
    }
    i = end + 1;
  }
  return out + raw.slice(i);
}

/** A value written into a field: every delimiter escaped, line breaks as `\.br\`. */
export function encode(text: string, d: Hl7v2Delimiters): string {
  const e = d.escape;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === e) out += `${e}E${e}`;
    else if (c === d.field) out += `${e}F${e}`;
    else if (c === d.component) out += `${e}S${e}`;
    else if (c === d.subcomponent) out += `${e}T${e}`;
    else if (c === d.repetition) out += `${e}R${e}`;
    else if (d.truncation && c === d.truncation) out += `${e}P${e}`;
    else if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      out += `${e}.br${e}`;
    } else out += c;
  }
  return out;
}
