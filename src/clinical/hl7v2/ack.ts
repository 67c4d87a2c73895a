import type { AckCode } from '@medplum/core';
import { encode } from './escape';
import { messageOf } from './header';
import { parsePath } from './path';
import { pick } from './structure';
import type { Hl7v2Message, Hl7v2Segment } from './types';

export type { AckCode };

/** HL7 table 0357 (message error condition codes), for ERR-3. */
export const ERROR_CONDITIONS: Readonly<Record<string, string>> = {
  '0': 'Message accepted',
  '100': 'Segment sequence error',
  '101': 'Required field missing',
  '102': 'Data type error',
  '103': 'Table value not found',
  '104': 'Value too long',
  '200': 'Unsupported message type',
  '201': 'Unsupported event code',
  '202': 'Unsupported processing id',
  '203': 'Unsupported version id',
  '204': 'Unknown key identifier',
  '205': 'Duplicate key identifier',
  '206': 'Application record locked',
  '207': 'Application internal error',
};

export interface AckError {
  /** Table 0357 code; default 207 (application internal error) */
  code?: string;
  /** What went wrong, for people (ERR-8 from v2.5, the code's text before) */
  message?: string;
  /** Where, as an HL7 path (`PID-5`, `OBX[2]-5.1`): ERR-2 from v2.5, ERR-1 before */
  location?: string;
  /** Table 0516: E error (default), W warning, I information (v2.5+) */
  severity?: 'E' | 'W' | 'I';
}

export interface AckOptions {
  /** MSA-1. Original mode: AA accept, AE error, AR reject; enhanced mode (commit level): CA, CE, CR. Default AA, or CA in enhanced mode. */
  code?: AckCode;
  /** Enhanced mode marks the ACK itself as not to be acknowledged (MSH-15 and MSH-16 `NE`). Default original. */
  mode?: 'original' | 'enhanced';
  /** MSA-3, the text message (escaped as needed) */
  text?: string;
  /** Adds an ERR segment */
  error?: AckError;
  /** MSH-10 of the ACK; default a new unique id of 15 characters */
  controlId?: string;
  /** MSH-7 of the ACK; default now */
  now?: Date;
}

/** Whether version `v` (`2.3.1`, `2.5`) is at least `min`. */
export function versionAtLeast(v: string, min: string): boolean {
  const a = v.split('.').map((n) => Number.parseInt(n, 10) || 0);
  const b = min.split('.').map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  }
  return true;
}

/** HL7 DTM in UTC with its offset stated: `20240105133000+0000`. */
export function hl7Timestamp(at: Date): string {
  return `${at.toISOString().slice(0, 19).replace(/[-:T]/g, '')}+0000`;
}

/** A new control id: time in base 36 and random characters, 15 in all (MSH-10 allows 20 before v2.7). */
export function newControlId(): string {
  const random = crypto.getRandomValues(new Uint32Array(2));
  const tail = (random[0]!.toString(36) + random[1]!.toString(36)).toUpperCase().padStart(6, '0').slice(-6);
  return `${Date.now().toString(36).toUpperCase().padStart(9, '0')}${tail}`;
}

function errSegment(error: AckError, received: Hl7v2Message): Hl7v2Segment {
  const d = received.delimiters;
  const code = error.code ?? '207';
  const name = ERROR_CONDITIONS[code] ?? '';
  const where = error.location ? parsePath(error.location) : undefined;
  const num = (n: number | '*' | undefined) => (typeof n === 'number' ? String(n) : where ? '1' : '');
  if (versionAtLeast(received.version, '2.5')) {
    const parts = where
      ? [where.segment, num(where.occurrence), String(where.field), num(where.repetition), String(where.component ?? ''), String(where.subcomponent ?? '')]
      : [];
    while (parts.length && parts[parts.length - 1] === '') parts.pop();
    const location = parts.join(d.component);
    const condition = [code, encode(name, d), 'HL70357'].join(d.component);
    return { id: 'ERR', fields: ['ERR', '', location, condition, error.severity ?? 'E', '', '', '', encode(error.message ?? '', d)] };
  }
  // before v2.5, ERR-1 (ELD): segment ^ sequence ^ field ^ code & text & coding system
  const text = error.message ? `${name}: ${error.message}` : name;
  const condition = [code, encode(text, d), 'HL70357'].join(d.subcomponent);
  const eld = [where?.segment ?? '', where ? num(where.occurrence) : '', where ? String(where.field) : '', condition].join(d.component);
  return { id: 'ERR', fields: ['ERR', eld] };
}

/**
 * The acknowledgment of a received message: MSH-3/4 and MSH-5/6 swapped, MSH-9 `ACK^<trigger>^ACK` (the
 * structure component from v2.3.1 on, when it exists), a new MSH-10, the received MSH-11 and MSH-12 and
 * delimiters; MSA-1 the code, MSA-2 the received control id, MSA-3 the text; an ERR segment when asked.
 */
export function buildAck(received: Hl7v2Message, options: AckOptions = {}): Hl7v2Message {
  const d = received.delimiters;
  const msh = received.segments[0]!;
  const field = (n: number) => msh.fields[n] ?? '';
  const trigger = pick(field(9), d, 1, 2, 0) ?? '';
  const type = ['ACK', trigger, trigger && versionAtLeast(received.version, '2.3.1') ? 'ACK' : ''].filter((c, i) => i === 0 || c).join(d.component);
  const code = options.code ?? (options.mode === 'enhanced' ? 'CA' : 'AA');
  const mshFields = [
    'MSH',
    d.field,
    field(2),
    field(5),
    field(6),
    field(3),
    field(4),
    hl7Timestamp(options.now ?? new Date()),
    '',
    type,
    options.controlId ?? newControlId(),
    field(11),
    field(12),
  ];
  if (options.mode === 'enhanced') mshFields.push('', '', 'NE', 'NE');
  const msa = ['MSA', code, field(10)];
  if (options.text) msa.push(encode(options.text, d));
  const segments: Hl7v2Segment[] = [
    { id: 'MSH', fields: mshFields },
    { id: 'MSA', fields: msa },
  ];
  if (options.error) segments.push(errSegment(options.error, received));
  return messageOf(segments, d);
}
