import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';

/**
 * The keyed parts of de-identification: pseudonyms (HMAC-SHA256 of a value under the organization's key, so the
 * same value gives the same pseudonym in every message and format, and nobody without the key can reverse or
 * recompute it) and the per-patient date shift (a number of days derived from a keyed hash of the patient's
 * identity, so all of one patient's dates move together).
 */
export interface DeidKey {
  /** The organization's secret (32 bytes from the host's `orgKey('deidentify')`) */
  readonly key: Uint8Array;
}

/** Refuses keys too short to be secret: HMAC would still run, but a guessable key lets anyone recompute pseudonyms. */
export function checkKey(key: Uint8Array): Uint8Array {
  if (!(key instanceof Uint8Array) || key.length < 16) throw new Error('the de-identification key must be at least 16 bytes');
  return key;
}

// a KeyObject per key (making one from raw bytes on every HMAC costs more than the HMAC), and the pseudonyms
// already computed under it: one patient's id recurs in every reference of every resource
/**
 * How many pseudonyms (and date shifts, and hashed references) each cache keeps before it starts over. Small on
 * purpose: what recurs does so within a message (one resource's id in its fullUrl, its request url and every
 * reference to it) or across the messages of a few minutes (a patient's MRN, the sending facility); most of a
 * live feed's values are new resource ids, seen in one message only. Measured with `bench/deidentify.ts` on the
 * ADT bundles as a feed (new ids in every message): 57,586 resources/s with 100,000 entries, 63,812 with 16,384,
 * 72,517 with 4,096 (same run; a big Map that is filled and cleared over and over costs more than the HMACs it saves).
 */
export const CACHED = 4_096;
const keyObjects = new WeakMap<Uint8Array, KeyObject>();
const pseudonyms = new WeakMap<Uint8Array, Map<string, string>>();
// and the date shifts (by limit and identity): every resource of a message asks for its patient's
const shifts = new WeakMap<Uint8Array, Map<string, number>>();

function hmac(key: Uint8Array, purpose: string, value: string): Buffer;
function hmac(key: Uint8Array, purpose: string, value: string, hex: 'hex'): string;
function hmac(key: Uint8Array, purpose: string, value: string, hex?: 'hex'): Buffer | string {
  let k = keyObjects.get(key);
  if (!k) keyObjects.set(key, (k = createSecretKey(key)));
  const h = createHmac('sha256', k).update(`${purpose}\u0000${value}`);
  return hex ? h.digest(hex) : h.digest();
}

/**
 * The pseudonym of an identifier value: HMAC-SHA256 under the key, written as a lowercase UUID (32 hex digits,
 * 128 bits of the MAC), which is a valid FHIR id, a valid `urn:uuid:` and fits an HL7 ID/CX component.
 * Identifier values are trimmed first, so `12345` and ` 12345` link.
 */
export function pseudonym(key: Uint8Array, value: string): string {
  let known = pseudonyms.get(key);
  if (!known) pseudonyms.set(key, (known = new Map()));
  const cached = known.get(value);
  if (cached) return cached;
  const h = hmac(key, 'id', value.trim(), 'hex');
  const p = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
  if (known.size >= CACHED) known.clear();
  known.set(value, p);
  return p;
}

/**
 * The date shift of one patient, in days: never 0, within ±`maxDays`, the same for the same identity and key.
 * `identity` is the patient's medical record number (or id, see fhir.ts); an empty identity (data about no
 * patient) gets the organization's own shift.
 */
export function shiftDays(key: Uint8Array, identity: string, maxDays: number): number {
  const max = Math.max(1, Math.floor(maxDays));
  let known = shifts.get(key);
  if (!known) shifts.set(key, (known = new Map()));
  const k = `${max}\u0000${identity}`;
  const cached = known.get(k);
  if (cached !== undefined) return cached;
  const n = hmac(key, 'date-shift', identity.trim()).readUInt32BE(0);
  const magnitude = 1 + (n % max);
  const days = n & 0x80000000 ? -magnitude : magnitude;
  if (known.size >= CACHED) known.clear();
  known.set(k, days);
  return days;
}

const DAY = 86_400_000;

/**
 * A date moved by `days`. The year is set with setUTCFullYear (Date.UTC reads years 0–99 as 1900–1999), and a date the
 * shift would take out of FHIR's years 0001–9999 (9999-12-31, the usual "no end") moves the other way instead: still a
 * valid date, still moved by the same amount.
 */
function ymd(y: number, m: number, d: number, days: number): [string, string, string] {
  const at = (n: number) => {
    const t = new Date(0);
    t.setUTCFullYear(y, m - 1, d);
    return new Date(t.getTime() + n * DAY);
  };
  let t = at(days);
  if (t.getUTCFullYear() < 1 || t.getUTCFullYear() > 9999) t = at(-days);
  return [String(t.getUTCFullYear()).padStart(4, '0'), String(t.getUTCMonth() + 1).padStart(2, '0'), String(t.getUTCDate()).padStart(2, '0')];
}

const FHIR_DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?(T.*)?$/;

/**
 * Moves a FHIR date, dateTime or instant by `days` whole days, keeping its precision, time of day and offset.
 * A year alone stays as it is (Safe Harbor keeps years); a year-month moves with its first day. Text that is
 * not a FHIR date comes back unchanged.
 */
export function shiftFhirDate(value: string, days: number): string {
  const m = FHIR_DATE.exec(value);
  if (!m || !m[2]) return value;
  const [y, mo, d] = ymd(Number(m[1]), Number(m[2]), m[3] ? Number(m[3]) : 1, days);
  if (!m[3]) return `${y}-${mo}`;
  return `${y}-${mo}-${d}${m[4] ?? ''}`;
}

const HL7_DTM = /^(\d{4})(\d{2})?(\d{2})?(.*)$/;

/** Moves an HL7 DT/DTM/TS value (`YYYY[MM[DD[HHMM[SS[.S]]]]][+/-ZZZZ]`) by `days`, keeping precision and the rest. */
export function shiftHl7Date(value: string, days: number): string {
  const m = HL7_DTM.exec(value);
  if (!m || !m[2]) return value;
  const [y, mo, d] = ymd(Number(m[1]), Number(m[2]), m[3] ? Number(m[3]) : 1, days);
  return m[3] ? `${y}${mo}${d}${m[4]}` : `${y}${mo}${m[4]}`;
}

/** What becomes of birth dates. */
export interface BirthDatePolicy {
  /** Keep the year of birth (Safe Harbor allows it) instead of a shifted date */
  keepYear: boolean;
  /** Birth dates of people older than 89: `boundary` writes the year 90 years before the reference date; `remove` drops them */
  over89: 'boundary' | 'remove';
}

/** Age in whole years at `at` of someone born on `birth` (a missing month or day counts as 1). */
export function ageAt(birth: { y: number; m: number; d: number }, at: Date): number {
  let age = at.getUTCFullYear() - birth.y;
  const month = at.getUTCMonth() + 1;
  if (month < birth.m || (month === birth.m && at.getUTCDate() < birth.d)) age--;
  return age;
}

/**
 * The de-identified birth date, given as `{y, m, d}` (missing month/day count as 1): undefined to remove it,
 * else `{year}` (a year alone) or `{shifted: true}` (the caller shifts the original by the patient's days).
 * `at` is when the age counts: the date of death when known, else now.
 */
export function birthDateOutcome(
  birth: { y: number; m: number; d: number },
  at: Date,
  policy: BirthDatePolicy,
): { year: number } | { shift: true } | undefined {
  if (ageAt(birth, at) > 89) return policy.over89 === 'remove' ? undefined : { year: at.getUTCFullYear() - 90 };
  return policy.keepYear ? { year: birth.y } : { shift: true };
}
