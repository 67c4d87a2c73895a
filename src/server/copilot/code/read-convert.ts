import type { Intents } from './read-request';

/** Unit conversions a request asks for ("convert weight from pounds to kilograms"). */
// prettier-ignore
const UNITS: Record<string, { re: RegExp; label: string; quantity: string }> = {
  'mg/dl': { re: /\bmg\s*\/\s*dl\b/i, label: 'mg/dL', quantity: 'glucose' },
  'mmol/l': { re: /\bmmol\s*\/\s*l\b/i, label: 'mmol/L', quantity: 'glucose' },
  lb: { re: /\b(?:lbs?|pounds?)\b/i, label: 'lb', quantity: 'weight' },
  kg: { re: /\b(?:kgs?|kilo(?:gram)?s?)\b/i, label: 'kg', quantity: 'weight' },
  in: { re: /\b(?:inch(?:es)?|in)\b(?=\s*(?:$|[,.;)]|to\b|into\b|from\b|and\b))/i, label: 'in', quantity: 'length' },
  cm: { re: /\b(?:cm|centimet(?:er|re)s?)\b/i, label: 'cm', quantity: 'length' },
  '[degF]': { re: /(?:°\s*f\b|\bfahrenheit\b|\bdeg(?:rees)?\s*f\b)/i, label: '[degF]', quantity: 'temperature' },
  Cel: { re: /(?:°\s*c\b|\bcelsius\b|\bcentigrade\b|\bdeg(?:rees)?\s*c\b)/i, label: 'Cel', quantity: 'temperature' },
};

/** Glucose: 1 mmol/L = 18.016 mg/dL (molar mass 180.16 g/mol); 1 lb = 0.45359237 kg exactly; 1 in = 2.54 cm exactly. */
// prettier-ignore
const CONVERSIONS: Record<string, { js: string; digits: number }> = {
  'mg/dl>mmol/l': { js: 'v / 18.016', digits: 1 },
  'mmol/l>mg/dl': { js: 'v * 18.016', digits: 0 },
  'lb>kg': { js: 'v * 0.45359237', digits: 1 },
  'kg>lb': { js: 'v / 0.45359237', digits: 1 },
  'in>cm': { js: 'v * 2.54', digits: 1 },
  'cm>in': { js: 'v / 2.54', digits: 1 },
  '[degF]>Cel': { js: '(v - 32) * 5 / 9', digits: 1 },
  'Cel>[degF]': { js: 'v * 9 / 5 + 32', digits: 1 },
};

export function readConvert(text: string): Intents['convert'] {
  const found = Object.entries(UNITS)
    .map(([id, u]) => ({ id, ...u, at: u.re.exec(text)?.index ?? -1 }))
    .filter((u) => u.at >= 0);
  if (!found.length) return null;
  const quantity = found[0]!.quantity;
  const same = found.filter((u) => u.quantity === quantity).sort((a, b) => a.at - b.at);
  let from: (typeof same)[number] | undefined;
  let to: (typeof same)[number] | undefined;
  if (same.length >= 2) {
    [from, to] = same as [(typeof same)[number], (typeof same)[number]];
    // "to kg from lb", "in mmol/L (from mg/dL)"
    const before = text.slice(0, from.at);
    if (/\b(?:to|into|in)\s*$/i.test(before) && new RegExp(`\\bfrom\\s*$`, 'i').test(text.slice(0, to.at))) [from, to] = [to, from];
  } else {
    to = same[0]!;
    if (!/\b(?:to|into|in|as)\s*$/i.test(text.slice(0, to.at)) && /\bfrom\s*$/i.test(text.slice(0, to.at))) from = to;
    const other = Object.entries(UNITS).find(([id, u]) => u.quantity === quantity && id !== to!.id);
    if (from === to) to = other ? { id: other[0], ...other[1], at: -1 } : undefined;
    else from = other ? { id: other[0], ...other[1], at: -1 } : undefined;
  }
  // a conversion is asked for by a verb, or by two units of one quantity ("weights in lb to kg"); "BMI from weight in lb" is not one
  if (!from || !to || !(/\b(?:convert|conversion|turn|express|change|switch)\b/i.test(text) || (same.length >= 2 && /\b(?:to|into)\b/i.test(text))))
    return null;
  const conv = CONVERSIONS[`${from.id}>${to.id}`];
  if (!conv) return null;
  const named = new RegExp(
    `\\b(?:convert|turn|express|change)\\s+(?:the\\s+|all\\s+|each\\s+)?([a-z][\\w ]*?)\\s+(?:values?\\s+)?(?:from|to|into|in)\\b`,
    'i',
  ).exec(text);
  const phrase = named?.[1] && !Object.values(UNITS).some((u) => u.re.test(named[1]!)) ? named[1] : null;
  return { quantity, from: { id: from.id, label: from.label }, to: { id: to.id, label: to.label }, ...conv, phrase };
}
