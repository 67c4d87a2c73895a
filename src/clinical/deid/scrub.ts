/**
 * Free-text scrubbing: what the record itself says about the person (names, identifier values, phones, emails,
 * address lines and cities found in the resources or segments) and what looks like an identifier anywhere
 * (phones, emails, SSNs, MRNs, URLs, dates, ages over 89) is replaced in notes, narratives and text attachments.
 * Dates are moved by the patient's shift when one is known (so a note and the record still agree), else replaced.
 */

/** Values found in a record, by kind; `add` ignores what is too short to be told from ordinary words. */
export class KnownIdentifiers {
  readonly terms = new Map<string, string>();
  private pattern?: { size: number; regex: RegExp | undefined };
  private lookup?: { size: number; byFirstWord: Map<string, string[]> | undefined };

  /** `words`: a person's name also counts word by word ("Dr. Jane Roe" → Jane, Roe); not a place's ("Newman Regional Health"). */
  add(kind: 'NAME' | 'ID' | 'PHONE' | 'EMAIL' | 'ADDRESS', value: unknown, words = kind === 'NAME'): void {
    if (typeof value !== 'string') return;
    const v = spaced(value.trim());
    // one or two letters (an initial, "Jr") and bare short numbers would scrub ordinary text
    if (v.length < 3 || (kind === 'ID' && v.length < 4)) return;
    const lower = v.toLowerCase();
    if (!this.terms.has(lower)) this.terms.set(lower, kind);
    if (words && v.includes(' ')) for (const part of v.split(' ')) this.add(kind, part.replace(/[.,]$/, ''), false);
    if (kind === 'PHONE') {
      const digits = v.replace(/\D/g, '');
      if (digits.length >= 7) this.terms.set(digits, 'PHONE');
    }
  }

  get size(): number {
    return this.terms.size;
  }

  /** One expression matching every term as a whole word (longest first), made again only when terms were added. */
  regex(): RegExp | undefined {
    if (this.pattern?.size === this.terms.size) return this.pattern.regex;
    const terms = [...this.terms.keys()].sort((a, b) => b.length - a.length);
    const regex = terms.length ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${terms.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`, 'giu') : undefined;
    this.pattern = { size: this.terms.size, regex };
    return regex;
  }

  /**
   * Replaces every term in `text` as `text.replace(this.regex(), …)` does, without the regex (whose thousands of
   * alternatives V8 compiles anew for each record): for ASCII text and terms only, where its case-insensitive
   * matching is plain lowercasing; undefined otherwise (then the regex decides).
   */
  replaceAscii(text: string, by: (match: string) => string): string | undefined {
    const byFirstWord = this.termsByFirstWord();
    if (!byFirstWord || !ASCII.test(text)) return undefined;
    // ASCII: lowercasing keeps every character where it was
    const lower = text.toLowerCase();
    let out = '';
    let last = 0;
    for (let i = 0; i < text.length; i++) {
      if (i > 0 && isWordChar(text.charCodeAt(i - 1))) continue;
      // a term that matches here starts with the same word as the text here (the match ends where a word does)
      let j = i;
      while (j < text.length && isWordChar(text.charCodeAt(j))) j++;
      const candidates = byFirstWord.get(lower.slice(i, j));
      if (!candidates) continue;
      for (const term of candidates) {
        const end = i + term.length;
        if (end > text.length || (end < text.length && isWordChar(text.charCodeAt(end)))) continue;
        if (!lower.startsWith(term, i)) continue;
        out += text.slice(last, i) + by(text.slice(i, end));
        last = end;
        i = end - 1;
        break;
      }
    }
    return last === 0 ? text : out + text.slice(last);
  }

  /** The terms by their first word ('' for those that start with a sign), longest first (the regex's order); undefined when one is not ASCII. */
  private termsByFirstWord(): Map<string, string[]> | undefined {
    if (this.lookup?.size === this.terms.size) return this.lookup.byFirstWord;
    // grouped in the order they were added, then each group longest first: the order of one sort of them all
    let byFirstWord: Map<string, string[]> | undefined = new Map();
    for (const t of this.terms.keys()) {
      let j = 0;
      while (j < t.length && isWordChar(t.charCodeAt(j))) j++;
      if (!isAscii(t, j)) {
        byFirstWord = undefined;
        break;
      }
      const first = t.slice(0, j);
      const list = byFirstWord.get(first);
      if (list) list.push(t);
      else byFirstWord.set(first, [t]);
    }
    if (byFirstWord) for (const list of byFirstWord.values()) if (list.length > 1) list.sort((a, b) => b.length - a.length);
    this.lookup = { size: this.terms.size, byFirstWord };
    return byFirstWord;
  }
}

const ASCII = /^[\x00-\x7f]*$/;
/** ASCII.test(s), knowing its first `from` characters are */
function isAscii(s: string, from: number): boolean {
  for (let i = from; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** `s.replace(/\s+/g, ' ')` for a trimmed `s`, without the regex when it has printable ASCII and single spaces only (most values) */
function spaced(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 32 && c < 127) continue;
    if (c === 32) {
      const next = s.charCodeAt(i + 1);
      if (next > 32 && next < 127) continue;
    }
    return s.replace(/\s+/g, ' ');
  }
  return s;
}
/** What the regex's `[\p{L}\p{N}]` is in ASCII */
const isWordChar = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

const MONTHS = 'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';

// one pass over the text for every pattern; the group that matched says what it was
const PATTERNS = new RegExp(
  [
    String.raw`(?<email>[\w.+-]+@[\w-]+(?:\.[\w-]+)+)`,
    String.raw`(?<url>\b(?:https?|ftp)://[^\s<>"']+|\bwww\.[^\s<>"']+)`,
    String.raw`(?<ssn>(?<![\d-])\d{3}-\d{2}-\d{4}(?![\d-]))`,
    String.raw`(?<mrn>\b(?:MRN|MR#|medical record (?:number|no\.?))[\s:#]*[A-Z0-9][A-Z0-9-]*)`,
    String.raw`(?<iso>(?<![\d-])\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?(?![\d-]))`,
    String.raw`(?<us>(?<![\d/])\d{1,2}/\d{1,2}/(?:\d{4}|\d{2})(?![\d/]))`,
    String.raw`(?<named>\b(?:${MONTHS})\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}\b|\b\d{1,2}\s+(?:${MONTHS})\.?,?\s+\d{4}\b)`,
    String.raw`(?<phone>(?<![\w.-])(?:\+?1[-. ]?)?(?:\(\d{3}\)\s?|\d{3}[-. ]?)\d{3}[-. ]?\d{4}(?![\w-]))`,
    String.raw`(?<age>\b(?:9\d|1[0-4]\d)(?=[- ]?(?:years?|yrs?|y/o|yo)\b))`,
  ].join('|'),
  'giu',
);

// what every one of the patterns needs (a digit, @, ://, www., MR or medical record): a text without any is left alone
const MAY_MATCH = /[\d@]|:\/\/|www\.|mr|medical record/i;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export interface ScrubOptions {
  /** Moves an ISO date (`YYYY-MM-DD…`) by the patient's shift; without it dates become `[DATE]` */
  shiftIso?: (iso: string) => string;
}

/** Scrubs text with what one record knows; build it once per record and call `scrub` for each text. */
export class Scrubber {
  constructor(
    private readonly identifiers: KnownIdentifiers,
    private readonly options: ScrubOptions = {},
  ) {}

  /** Only the values known from the record replaced (for coded or structured text, where patterns would misfire). */
  scrubKnown(text: string): string {
    if (this.identifiers.size === 0) return text;
    const kind = (m: string) => `[${this.identifiers.terms.get(m.toLowerCase()) ?? 'REDACTED'}]`;
    return this.identifiers.replaceAscii(text, kind) ?? text.replace(this.identifiers.regex()!, kind);
  }

  scrub(text: string): string {
    const known = this.scrubKnown(text);
    if (!MAY_MATCH.test(known)) return known;
    return known.replace(PATTERNS, (m, ...args) => {
      const g = args[args.length - 1] as Record<string, string | undefined>;
      if (g.email) return '[EMAIL]';
      if (g.url) return '[URL]';
      if (g.ssn) return '[SSN]';
      if (g.mrn) return 'MRN [ID]';
      if (g.iso) return this.options.shiftIso ? this.options.shiftIso(m) : '[DATE]';
      if (g.us) return this.shiftUs(m);
      if (g.named) return '[DATE]';
      if (g.phone) return '[PHONE]';
      if (g.age) return '90+';
      return m;
    });
  }

  private shiftUs(m: string): string {
    const [mo, d, y] = m.split('/').map(Number) as [number, number, number];
    if (!this.options.shiftIso || y < 100 || mo < 1 || mo > 12 || d < 1 || d > 31) return '[DATE]';
    const iso = this.options.shiftIso(`${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
    const [yy, mm, dd] = iso.split('-');
    return `${Number(mm)}/${Number(dd)}/${yy}`;
  }
}
