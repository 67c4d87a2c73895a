import { createHash } from 'node:crypto';

/** A text is prepared once it has come this many times. */
const HOT = 3;
/** At most this many texts are prepared (each connection keeps a statement per text). */
const MAX_PREPARED = 100;
/** Texts counted before the counts start again (texts with values written into them come once each). */
const MAX_COUNTED = 2_000;

/**
 * Which statements to send prepared: those that come again and again with the same text (a queue's fetch, an
 * execution's admission and result), not one-off texts (with values written into them) nor several statements
 * in one text, which cannot be prepared. `nameOf(text)` gives the statement's name, or undefined: send it as it is.
 * Postgres then parses and plans a text once per connection instead of on every call.
 */
export class PreparedTexts {
  private readonly counts = new Map<string, number>();
  private readonly names = new Map<string, string>();

  constructor(private readonly prefix: string) {}

  nameOf(text: string): string | undefined {
    const known = this.names.get(text);
    if (known) return known;
    if (this.names.size >= MAX_PREPARED || /;\s*\S/.test(text.trim().replace(/;+$/, ''))) return undefined;
    if (this.counts.size >= MAX_COUNTED) this.counts.clear();
    const n = (this.counts.get(text) ?? 0) + 1;
    if (n < HOT) {
      this.counts.set(text, n);
      return undefined;
    }
    this.counts.delete(text);
    const name = `${this.prefix}_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    this.names.set(text, name);
    return name;
  }
}
