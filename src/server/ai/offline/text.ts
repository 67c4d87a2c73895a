/** Plain-text helpers shared by the offline model's parts. */

/** Sentences of clinical text: split after . ! ? or at line breaks, HL7 escapes (\.br\) treated as breaks. */
export function sentences(text: string): string[] {
  return text
    .replace(/\\\.br\\/g, '\n')
    .split(/(?<=[.!?])\s+(?=[A-Z0-9])|\n+/)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => /[A-Za-z]{2}/.test(s));
}

export const words = (text: string) => text.split(/\s+/).filter(Boolean);

/** Tokens are counted as words: an approximation, stated as such in the model's documentation. */
export const countTokens = (text: string) => words(text).length;

/** Free-text answers say what produced them; JSON answers do not (they must parse). */
export const OFFLINE_NOTE = '[clinflow/offline: rule-based, no LLM]';
