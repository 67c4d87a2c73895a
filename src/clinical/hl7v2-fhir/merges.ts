import type { Identifier, Linkage, LinkageItem } from '@medplum/fhirtypes';
import type { Ctx } from './context';
import { identifier } from './datatypes';
import type { Seg } from './reader';

/**
 * Events that say two identifiers now name one record, and which record: the patient (PID-3 replaces MRG-1: a
 * merge A34/A40, a change of identifier A46/A47) or the account (PID-18 replaces MRG-3: A35/A41, a change of
 * account number A49). Such a message identifies records, it does not describe them: its PID and PV1 say whose
 * record it is. So the bundle holds the Linkage (as the FHIR-Converter templates make of A40, A41 and A47) and no
 * Patient, Encounter or person: a Patient PUT for the record replaced (MRG-1 only) would overwrite what a server
 * knows of that patient with a stub, and one for the survivor would rewrite it from a segment that only names it.
 * A move of a visit (A45) is not among them: the visit it moves is the subject, and it is converted as it reads.
 */
export const MERGE_EVENTS: Record<string, 'Patient' | 'Account'> = {
  'ADT^A34': 'Patient',
  'ADT^A40': 'Patient',
  'ADT^A46': 'Patient',
  'ADT^A47': 'Patient',
  'ADT^A35': 'Account',
  'ADT^A41': 'Account',
  'ADT^A49': 'Account',
};

function items(type: 'source' | 'historical', resource: 'Patient' | 'Account', ids: (Identifier | undefined)[]): LinkageItem[] {
  return ids.filter((x): x is Identifier => !!x).map((id) => ({ type, resource: { type: resource, identifier: id } }));
}

/**
 * Each PID with the MRG that follows it (before the next PID) → a Linkage: the record named by the PID (`source`,
 * every repetition of PID-3, or PID-18 for an account) and the one it replaces (`historical`, MRG-1 or MRG-3).
 * A pair with either side empty links nothing and gives no Linkage. Returns the segments it did not read.
 */
export function mergeLinkages(all: Seg[], kind: 'Patient' | 'Account', ctx: Ctx): Record<string, number> {
  const skipped: Record<string, number> = {};
  for (let i = 0; i < all.length; i++) {
    const s = all[i]!;
    if (s.id !== 'PID') {
      if (!['MSH', 'SFT', 'EVN', 'MRG'].includes(s.id)) skipped[s.id] = (skipped[s.id] ?? 0) + 1;
      continue;
    }
    const mrg = all.slice(i + 1).find((x) => x.id === 'MRG' || x.id === 'PID');
    if (mrg?.id !== 'MRG') continue;
    const source = kind === 'Patient' ? items('source', kind, s.reps(3).map(identifier)) : items('source', kind, [identifier(s.f(18))]);
    const historical = kind === 'Patient' ? items('historical', kind, mrg.reps(1).map(identifier)) : items('historical', kind, [identifier(mrg.f(3))]);
    if (!source.length || !historical.length) continue;
    ctx.once<Linkage>('Linkage', `MRG|${mrg.index}`, (id) => ({ resourceType: 'Linkage', id, item: [...source, ...historical] }));
  }
  return skipped;
}
