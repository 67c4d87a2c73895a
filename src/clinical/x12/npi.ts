/**
 * Whether a National Provider Identifier is well formed: 10 digits whose last is the Luhn check digit computed
 * over the card-issuer prefix 80840 followed by the first nine (CMS, "NPI check digit").
 */
export function isValidNpi(npi: string): boolean {
  if (!/^\d{10}$/.test(npi)) return false;
  const digits = `80840${npi}`;
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Why an NPI is malformed, in words, or undefined when it is well formed. */
export function npiProblem(npi: string): string | undefined {
  if (npi === '') return 'is empty';
  if (!/^\d+$/.test(npi)) return 'is not all digits';
  if (npi.length !== 10) return `has ${npi.length} digits, not 10`;
  if (!isValidNpi(npi)) return 'fails the check digit (Luhn over 80840 and the first nine digits)';
  return undefined;
}
