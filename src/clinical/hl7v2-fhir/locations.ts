import type { Location } from '@medplum/fhirtypes';
import { tableConcept } from './datatypes';
import type { Ctx, Ref } from './context';
import type { Field } from './reader';

/**
 * The parts of a PL (person location) from the outermost in, with the physical type the FHIR-Converter templates
 * give each: facility (PL-4, an HD), building (PL-7), floor (PL-8), point of care (PL-1), room (PL-2), bed (PL-3).
 */
const LEVELS: { component: number; name: string; type: string }[] = [
  { component: 4, name: 'facility', type: 'si' },
  { component: 7, name: 'building', type: 'bu' },
  { component: 8, name: 'floor', type: 'lvl' },
  { component: 1, name: 'point of care', type: 'lvl' },
  { component: 2, name: 'room', type: 'ro' },
  { component: 3, name: 'bed', type: 'bd' },
];

/**
 * PL → a Location for each part it names, each `partOf` the one around it (a bed of a room of a ward of a
 * facility), and the reference of the innermost: where the patient is. PL-6 (person location type, table 0305) is
 * the type of that innermost one. A location is known by its parts from the facility in, so every message that
 * names the same bed gives the same Location (the id is the sender's, as for patients and visits).
 */
export function location(ctx: Ctx, pl: Field | undefined): Ref | undefined {
  if (!pl || pl.empty) return undefined;
  const present = LEVELS.map((l) => ({ ...l, value: pl.s(l.component, 1).trim() })).filter((l) => l.value);
  let outer: Ref | undefined;
  const path: string[] = [];
  present.forEach((level, i) => {
    path.push(`${level.name}=${level.value}`);
    const partOf = outer;
    const innermost = i === present.length - 1;
    const made = ctx.once<Location>(
      'Location',
      `PL|${path.join('|')}`,
      (id) => ({
        resourceType: 'Location',
        id,
        name: level.value,
        mode: 'instance',
        physicalType: { coding: [{ code: level.type, system: 'http://terminology.hl7.org/CodeSystem/location-physical-type' }] },
        ...(partOf ? { partOf } : {}),
        ...(innermost && tableConcept(pl.c(6), '0305') ? { type: [tableConcept(pl.c(6), '0305')!] } : {}),
      }),
      true,
    );
    outer = ctx.ref(made);
  });
  return outer;
}
