import { decode, type Hl7v2Message, SEGMENTS } from '@/clinical/hl7v2';
import { trivial, type PhiKind } from './deid';

// The PHI of HL7 v2 messages, for the leak scans of de-identification (deid.ts holds FHIR's and the shared helpers).

/** The HL7 v2 segments that describe a person: every ST field of theirs is the person's (an SSN, a policy number…). */
export const HL7_PERSON_SEGMENTS = new Set(['PID', 'PD1', 'NK1', 'GT1', 'IN1', 'IN2', 'IN3', 'MRG']);

/** Segments about the sending system and the exchange (the software, the acknowledgment), not about a person. */
const HL7_SYSTEM_SEGMENTS = new Set(['MSH', 'SFT', 'MSA', 'ERR', 'BHS', 'BTS', 'FHS', 'FTS']);

/** Components that identify, by data type (1-based; [component, kind]). */
const HL7_TYPED: Record<string, readonly [number, PhiKind][]> = {
  XPN: [
    [1, 'name'],
    [2, 'name'],
    [3, 'name'],
  ],
  XCN: [
    [1, 'identifier'],
    [2, 'name'],
    [3, 'name'],
    [4, 'name'],
  ],
  XAD: [
    [1, 'address'],
    [2, 'address'],
    [3, 'address'],
    [5, 'postalCode'],
    [8, 'address'],
  ],
  XTN: [
    [1, 'telecom'],
    [4, 'telecom'],
    [7, 'telecom'],
    [12, 'telecom'],
  ],
  CX: [[1, 'identifier']],
  EI: [[1, 'identifier']],
  EIP: [[1, 'identifier']],
  DLN: [[1, 'identifier']],
  XON: [
    [1, 'placeName'],
    [10, 'identifier'],
  ],
};

/**
 * What identifies a person in an HL7 v2 message, by the data type the field table gives each field: XPN, XCN
 * (id and name), XAD (street, other designation, city, 5-digit ZIP, other geographic designation), XTN (number,
 * email, local number), CX, EI, DLN and XON (name, id) components in every segment but MSH, every sub-component
 * of them; birth dates (a TS/DTM field named "… Birth …", to the day); and every ST field of the segments that
 * describe a person. Segments the table does not know (IN3, Z-segments) are not collected from.
 */
export function hl7Phi(m: Hl7v2Message): Map<string, PhiKind> {
  const out = new Map<string, PhiKind>();
  const d = m.delimiters;
  const add = (v: string | undefined, kind: PhiKind) => {
    const t = v === undefined ? '' : decode(v, d).trim();
    if (t && !trivial(t) && !(kind === 'postalCode' && t.replace(/\D/g, '').length <= 3) && !out.has(t)) out.set(t, kind);
  };
  for (const seg of m.segments) {
    const def = SEGMENTS[seg.id];
    if (!def || HL7_SYSTEM_SEGMENTS.has(seg.id)) continue;
    def.fields.forEach(([name, type], i) => {
      const raw = seg.fields[i + 1];
      if (!raw) return;
      for (const rep of raw.split(d.repetition)) {
        const comps = rep.split(d.component);
        for (const [c, kind] of HL7_TYPED[type] ?? []) {
          const subs = (comps[c - 1] ?? '').split(d.subcomponent);
          // a street (SAD: "2222&HOME&STREET") as a whole; other components' parts one by one
          if (type === 'XAD' && c === 1) add(subs.join(' ').replace(/\s+/g, ' '), kind);
          else for (const sub of subs) add(sub, kind);
        }
        if (/birth/i.test(name) && /^(TS|DTM|DT)$/.test(type)) {
          const day = /^\d{8}/.exec(decode(comps[0] ?? '', d))?.[0];
          if (day) out.set(day, 'birthDate');
        }
        if (type === 'ST' && HL7_PERSON_SEGMENTS.has(seg.id)) add(rep, 'personString');
        else if (type === 'ST' && /place|location/i.test(name)) add(rep, 'address');
        else if (type === 'ST' && /\b(?:number|id)$/i.test(name) && !/sub-id$/i.test(name)) add(rep, 'identifier');
      }
    });
  }
  return out;
}

/** The dates (TS, DTM, DT fields, to the day) of an HL7 v2 message left as they were, at the same place in the output. */
export function hl7DatesKept(input: Hl7v2Message, output: Hl7v2Message): string[] {
  const out: string[] = [];
  const d = input.delimiters;
  input.segments.forEach((seg, s) => {
    const def = SEGMENTS[seg.id];
    def?.fields.forEach(([, type], i) => {
      if (!/^(TS|DTM|DT)$/.test(type) || (seg.id === 'MSH' && i + 1 <= 2)) return;
      const before = (seg.fields[i + 1] ?? '').split(d.repetition);
      const after = (output.segments[s]?.fields[i + 1] ?? '').split(output.delimiters.repetition);
      before.forEach((rep, r) => {
        const day = rep.split(d.component)[0] ?? '';
        if (/^\d{8}/.test(day) && after[r]?.split(output.delimiters.component)[0] === day) out.push(`date: ${day} at ${seg.id}-${i + 1}`);
      });
    });
  });
  return out;
}
