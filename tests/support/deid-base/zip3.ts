/**
 * Safe Harbor (45 CFR 164.514(b)(2)(i)(B)) lets the first three digits of a ZIP code stay when the area of all ZIP
 * codes sharing them has more than 20,000 people; the others become `000`. These are the 3-digit ZIP areas with
 * 20,000 or fewer people in the 2000 Census, as listed by HHS OCR, "Guidance Regarding Methods for
 * De-identification of Protected Health Information in Accordance with the HIPAA Privacy Rule" (2012),
 * https://www.hhs.gov/hipaa/for-professionals/special-topics/de-identification/index.html
 */
export const RESTRICTED_ZIP3: ReadonlySet<string> = new Set([
  '036',
  '059',
  '063',
  '102',
  '203',
  '556',
  '692',
  '790',
  '821',
  '823',
  '830',
  '831',
  '878',
  '879',
  '884',
  '890',
  '893',
]);

/**
 * A US ZIP (`66801`, `66801-2504`, `668012504`) cut to its first three digits, or `000` for the restricted
 * areas; anything that is not a US ZIP (a Canadian postcode, text) becomes undefined, to be removed.
 */
export function zip3(zip: string): string | undefined {
  const m = /^\s*(\d{3})\d{2}(?:-?\d{4})?\s*$/.exec(zip);
  if (!m) return undefined;
  return RESTRICTED_ZIP3.has(m[1]!) ? '000' : m[1];
}
