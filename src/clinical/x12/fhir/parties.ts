import type { Address, HumanName, Identifier, Location, Organization, Patient, Practitioner, Reference } from '@medplum/fhirtypes';
import { el } from '../elements';
import { segmentOf, segmentsOf } from '../loops';
import type { X12Loop, X12Segment } from '../types';
import { concept, GENDER, SYSTEM, x12Date } from './codes';
import type { ResourceSet } from './resource-set';

/** The child loop (any id) whose NM1 (or N1) names one of these entity codes: `nameLoop(claim, '82')`. */
export function nameLoop(node: { loops: X12Loop[] } | undefined, ...codes: string[]): X12Loop | undefined {
  return node?.loops.find((l) => {
    const first = l.segments[0];
    return (first?.id === 'NM1' || first?.id === 'N1') && codes.includes(el(first, 1));
  });
}

/** NM1 person name: NM103 family, NM104 first, NM105 middle, NM106 prefix, NM107 suffix. */
function humanName(nm1: X12Segment): HumanName | undefined {
  const family = el(nm1, 3);
  const given = [el(nm1, 4), el(nm1, 5)].filter(Boolean);
  if (!family && given.length === 0) return undefined;
  const prefix = el(nm1, 6);
  const suffix = el(nm1, 7);
  return {
    ...(family ? { family } : {}),
    ...(given.length ? { given } : {}),
    ...(prefix ? { prefix: [prefix] } : {}),
    ...(suffix ? { suffix: [suffix] } : {}),
  };
}

/** N3 (street lines) and N4 (city, state, ZIP, country) of a name loop. */
export function address(node: X12Loop | undefined): Address | undefined {
  const n3 = segmentOf(node, 'N3');
  const n4 = segmentOf(node, 'N4');
  if (!n3 && !n4) return undefined;
  const line = [el(n3, 1), el(n3, 2)].filter(Boolean);
  const a: Address = {
    ...(line.length ? { line } : {}),
    ...(el(n4, 1) ? { city: el(n4, 1) } : {}),
    ...(el(n4, 2) ? { state: el(n4, 2) } : {}),
    ...(el(n4, 3) ? { postalCode: el(n4, 3) } : {}),
    ...(el(n4, 4) ? { country: el(n4, 4) } : {}),
  };
  return a;
}

const ID_TYPE: Record<string, string> = { MI: 'MB', II: 'MB', HN: 'MB', '34': 'SS', '24': 'TAX', FI: 'TAX', PI: 'NIIP', XV: 'NIIP' };

/** NM108/NM109 (or N103/N104): an NPI when the qualifier is XX, a tax id for 24/FI, a member id for MI. */
function identifiers(nm1: X12Segment, loop?: X12Loop): Identifier[] {
  const [qualifier, value] = nm1.id === 'N1' ? [el(nm1, 3), el(nm1, 4)] : [el(nm1, 8), el(nm1, 9)];
  const out: Identifier[] = [];
  if (value) {
    if (qualifier === 'XX') out.push({ system: SYSTEM.npi, value });
    else if (qualifier === '24' || qualifier === 'FI') out.push({ system: SYSTEM.tin, value });
    else if (qualifier !== '34') out.push({ ...(ID_TYPE[qualifier] ? { type: concept(SYSTEM.identifierType, ID_TYPE[qualifier]!) } : {}), value });
  }
  const ein = segmentOf(loop, 'REF', 'EI');
  if (ein && el(ein, 2) && !out.some((i) => i.system === SYSTEM.tin)) out.push({ system: SYSTEM.tin, value: el(ein, 2) });
  return out;
}

function key(kind: string, nm1: X12Segment): string {
  const [q, v] = nm1.id === 'N1' ? [el(nm1, 3), el(nm1, 4)] : [el(nm1, 8), el(nm1, 9)];
  return v ? `${kind}:${q}:${v}` : `${kind}:name:${el(nm1, 2)}:${el(nm1, 3)}:${el(nm1, 4)}`;
}

/** A patient from a name loop (NM1*IL / NM1*QC) with its DMG (birth date, gender) and address. */
export function addPatient(set: ResourceSet, loop: X12Loop, dmgFrom?: X12Loop): Reference<Patient> {
  const nm1 = loop.segments[0]!;
  const dmg = segmentOf(loop, 'DMG') ?? segmentOf(dmgFrom, 'DMG');
  const name = humanName(nm1);
  const birthDate = el(dmg, 1) === 'D8' ? x12Date(el(dmg, 2)) : undefined;
  const gender = GENDER[el(dmg, 3)];
  const addr = address(loop);
  const ids = identifiers(nm1);
  return set.add<Patient>(key('Patient', nm1) + (birthDate ?? ''), (id) => ({
    resourceType: 'Patient',
    id,
    ...(ids.length ? { identifier: ids } : {}),
    ...(name ? { name: [name] } : {}),
    ...(gender ? { gender } : {}),
    ...(birthDate ? { birthDate } : {}),
    ...(addr ? { address: [addr] } : {}),
  }));
}

/** A provider or payer: a Practitioner when NM102 is 1 (a person), else an Organization. */
export function addParty(set: ResourceSet, loop: X12Loop): Reference<Practitioner | Organization> {
  const nm1 = loop.segments[0]!;
  const ids = identifiers(nm1, loop);
  const addr = address(loop);
  if (nm1.id === 'NM1' && el(nm1, 2) === '1') {
    const name = humanName(nm1);
    const taxonomy = segmentsOf(loop, 'PRV')
      .map((p) => el(p, 3))
      .filter(Boolean);
    return set.add<Practitioner>(key('Practitioner', nm1), (id) => ({
      resourceType: 'Practitioner',
      id,
      ...(ids.length ? { identifier: ids } : {}),
      ...(name ? { name: [name] } : {}),
      ...(addr ? { address: [addr] } : {}),
      ...(taxonomy.length ? { qualification: taxonomy.map((code) => ({ code: concept(SYSTEM.taxonomy, code) })) } : {}),
    }));
  }
  const name = nm1.id === 'N1' ? el(nm1, 2) : el(nm1, 3);
  return set.add<Organization>(
    key('Organization', nm1),
    (id) => ({
      resourceType: 'Organization',
      id,
      active: true,
      ...(ids.length ? { identifier: ids } : {}),
      ...(name ? { name } : {}),
      ...(addr ? { address: [addr] } : {}),
    }),
    name || undefined,
  );
}

/** A service facility (NM1*77 / FA) as a Location. */
export function addLocation(set: ResourceSet, loop: X12Loop): Reference<Location> {
  const nm1 = loop.segments[0]!;
  const ids = identifiers(nm1, loop);
  const addr = address(loop);
  const name = el(nm1, 3);
  return set.add<Location>(key('Location', nm1), (id) => ({
    resourceType: 'Location',
    id,
    ...(ids.length ? { identifier: ids } : {}),
    ...(name ? { name } : {}),
    ...(addr ? { address: addr } : {}),
  }));
}
