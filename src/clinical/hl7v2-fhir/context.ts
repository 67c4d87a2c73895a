import type { Encounter, EncounterDiagnosis, Patient, Practitioner, Reference, Resource } from '@medplum/fhirtypes';

/** A reference that fits any Reference<T> field (ours point at resources of the bundle by type and id). */
export type Ref = Reference<never>;
import { clean, dateTime, hdSystem, humanName } from './datatypes';
import type { Field, Seg } from './reader';

export interface ConvertOptions {
  /** `transaction` (default) or `batch`: entries carry a PUT request; `collection`: no requests */
  bundleType?: 'transaction' | 'batch' | 'collection';
  /** Add the MessageHeader (MSH) (default true) */
  messageHeader?: boolean;
  /** Add Provenance: the conversion itself, and the event of EVN (default true) */
  provenance?: boolean;
  /** UTC offset for times the sender wrote without one, e.g. `+00:00` or `-05:00` (default `+00:00`) */
  timezone?: string;
}

/** The four lanes of uuidOf's hash after some text: what a key's prefix leaves, to go on from. */
type HashState = [number, number, number, number];

const START: Readonly<HashState> = [0x811c9dc5 ^ 0, 0x01000193 ^ 0x5bd1e995, 0xcbf29ce4, 0x84222325];

/** The hash lanes after reading `text` from `state`. */
function absorb(state: Readonly<HashState>, text: string): HashState {
  let [h1, h2, h3, h4] = state;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h3 = Math.imul(h3 ^ c, 0x85ebca6b);
    h4 = Math.imul(h4 ^ c, 0xc2b2ae35);
  }
  return [h1, h2, h3, h4];
}

/** The UUID of the text read into `state` (see uuidOf). */
function uuidFrom(state: Readonly<HashState>): string {
  let [h1, h2, h3, h4] = state;
  h1 = Math.imul(h1 ^ (h2 >>> 15), 0x2c1b3c6d);
  h2 = Math.imul(h2 ^ (h3 >>> 13), 0x297a2d39);
  h3 = Math.imul(h3 ^ (h4 >>> 16), 0x1b873593);
  h4 = Math.imul(h4 ^ (h1 >>> 11), 0xcc9e2d51);
  return `${hex8(h1)}-${hex4(h2 >>> 16)}-${hex4(h2 & 0xffff)}-${hex4(h3 >>> 16)}-${hex4(h3 & 0xffff)}${hex8(h4)}`;
}

/** 32 hex digits from a string, deterministic (two FNV-1a style 64-bit-ish lanes), as a UUID. */
export function uuidOf(key: string): string {
  return uuidFrom(absorb(START, key));
}

/** Two hex digits of each byte, made once (uuidOf runs for every resource of every message). */
const HEX2: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function hex4(n: number): string {
  return HEX2[n >>> 8]! + HEX2[n & 0xff]!;
}

function hex8(h: number): string {
  return hex4(h >>> 16) + hex4(h & 0xffff);
}

/**
 * What a conversion builds up: the resources in bundle order, ids derived from the message (MSH-10 and the
 * sending application) and what each resource stands for, so the same message always gives the same bundle and
 * a person named twice (PV1-7 and ORC-12) is one Practitioner.
 */
export class Ctx {
  readonly resources: Resource[] = [];
  private readonly byKey = new Map<string, Resource>();
  patient?: Ref;
  encounter?: Ref;
  /** The Patient of the current PID, which GT1, IN1/IN2 and DB1 about the patient add to */
  patientResource?: Patient;
  encounterResource?: Encounter;
  /** Diagnoses (DG1) read before any PV1, for the Encounter that follows */
  readonly pendingDiagnoses: EncounterDiagnosis[] = [];
  /** The id hash after `${messageKey}|` and after `${senderKey}|`, the prefixes of every resource's key */
  private messageState?: HashState;
  private senderState?: HashState;

  constructor(
    /** What makes this message unique (sending application and facility, MSH-10, MSH-7) */
    readonly messageKey: string,
    /** The sender (sending facility), in whose name patients, visits and people are known */
    readonly senderKey: string,
    readonly options: Required<ConvertOptions>,
  ) {}

  /**
   * A resource of this type standing for `key` in this message: the one already made, or `make(id)` added to the
   * bundle. With `shared`, the key names the thing itself for the sender (a patient by identifier, a visit by
   * number, a practitioner by id), so every message about it gives it the same id and a PUT updates it.
   */
  once<T extends Resource>(type: T['resourceType'], key: string, make: (id: string) => T, shared = false): T {
    const k = `${type}|${key}`;
    const found = this.byKey.get(k);
    if (found) return found as T;
    // the resource takes its place before those its making adds (a Patient before its general practitioner)
    const at = this.resources.length;
    this.resources.push(undefined as never); // a placeholder, replaced by the resource two lines below
    // uuidOf(`${senderKey or messageKey}|${k}`), the prefix read once per message
    const r = make(
      uuidFrom(absorb(shared ? (this.senderState ??= absorb(START, `${this.senderKey}|`)) : (this.messageState ??= absorb(START, `${this.messageKey}|`)), k)),
    );
    this.byKey.set(k, r);
    this.resources[at] = r;
    return r;
  }

  ref(r: Resource): Ref {
    return { reference: `${r.resourceType}/${r.id}` };
  }

  /** HL7 date/time → FHIR dateTime, times without a zone read in the configured one. */
  dt(ts: string): string | undefined {
    const t = ts.trim();
    if (/^\d{10,}(\.\d+)?$/.test(t)) return dateTime(`${t}${this.options.timezone.replace(':', '')}`);
    return dateTime(t);
  }

  /** HL7 date/time → FHIR instant (seconds and zone required), or undefined when the value has no time. */
  instant(ts: string): string | undefined {
    const v = this.dt(ts);
    return v && v.includes('T') ? v : undefined;
  }

  /** A Practitioner for an XCN (id 1, name 2–7, assigning authority 9, id type 13), or undefined when empty. */
  practitioner(f: Field | undefined): Ref | undefined {
    if (!f || f.empty) return undefined;
    const id = f.c(1).trim();
    const name = humanName(f, 1);
    if (!id && !name) return undefined;
    const system = hdSystem(f.sub(9));
    const key = id ? `${system ?? ''}|${id}` : JSON.stringify(name);
    const p = this.once<Practitioner>(
      'Practitioner',
      key,
      (rid) => ({
        resourceType: 'Practitioner',
        id: rid,
        ...clean({ identifier: id ? [clean({ value: id, system })!] : [], name: name ? [name] : [] }),
      }),
      !!id,
    );
    return this.ref(p);
  }
}

export const DEFAULTS: Required<ConvertOptions> = { bundleType: 'transaction', messageHeader: true, provenance: true, timezone: '+00:00' };

export type Mapper = (seg: Seg, ctx: Ctx) => void;
