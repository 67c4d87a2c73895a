/**
 * `text.split(sep)` for a string separator, by indexOf and slice: the same list, without the runtime call that
 * String.prototype.split makes each time, which costs more than the splitting itself on the short strings of
 * HL7 v2 (segments into fields, fields into repetitions, components and sub-components).
 */
export function splitOn(text: string, sep: string): string[] {
  if (sep === '') return text.split(sep);
  const out: string[] = [];
  let from = 0;
  for (let at = text.indexOf(sep); at >= 0; at = text.indexOf(sep, from)) {
    out.push(text.slice(from, at));
    from = at + sep.length;
  }
  out.push(text.slice(from));
  return out;
}
