import type { ClaimCareTeam, ClaimDiagnosis, ClaimItem, ClaimProcedure, CodeableConcept, Quantity } from '@medplum/fhirtypes';
import { components, el } from '../elements';
import { segmentOf, segmentsOf } from '../loops';
import type { X12Loop } from '../types';
import { concept, diagnosisCode, icd9Procedure, modifierCoding, money, procedureCoding, SYSTEM, x12Period } from './codes';
import { addParty, nameLoop } from './parties';
import type { ResourceSet } from './resource-set';

/** HI qualifiers of diagnosis codes: [ICD-10?, diagnosis type]. */
const DIAGNOSIS: Record<string, [boolean, string?]> = {
  ABK: [true, 'principal'],
  BK: [false, 'principal'],
  ABF: [true],
  BF: [false],
  ABJ: [true, 'admitting'],
  BJ: [false, 'admitting'],
  APR: [true, 'reason'],
  PR: [false, 'reason'],
  ABN: [true, 'external'],
  BN: [false, 'external'],
};

/** HI qualifiers of procedure codes: [ICD-10-PCS?, principal?]. */
const PROCEDURE: Record<string, [boolean, boolean]> = { BBR: [true, true], BR: [false, true], BBQ: [true, false], BQ: [false, false], CAH: [true, false] };

function diagnosisType(kind: string | undefined): CodeableConcept[] | undefined {
  if (kind === 'principal' || kind === 'admitting') return [concept(SYSTEM.diagnosisType, kind)];
  if (kind === 'reason') return [{ text: 'Patient reason for visit' }];
  if (kind === 'external') return [{ text: 'External cause of injury' }];
  return undefined;
}

/** Diagnosis codes of the claim's HI segments, in order (SV107 pointers count in this order), and procedures. */
export function diagnosesAndProcedures(claim: X12Loop): { diagnosis: ClaimDiagnosis[]; procedure: ClaimProcedure[] } {
  const diagnosis: ClaimDiagnosis[] = [];
  const procedure: ClaimProcedure[] = [];
  for (const hi of segmentsOf(claim, 'HI')) {
    for (let n = 1; n <= 12; n++) {
      const [qualifier = '', code = '', format = '', date = '', , , , , poa = ''] = components(hi, n);
      if (!code) continue;
      const dx = DIAGNOSIS[qualifier];
      const px = PROCEDURE[qualifier];
      if (dx) {
        const [icd10, kind] = dx;
        const type = diagnosisType(kind);
        diagnosis.push({
          sequence: diagnosis.length + 1,
          diagnosisCodeableConcept: concept(icd10 ? SYSTEM.icd10cm : SYSTEM.icd9cm, diagnosisCode(code, icd10)),
          ...(type ? { type } : {}),
          ...(/^[YNUW]$/.test(poa) ? { onAdmission: concept(SYSTEM.onAdmission, poa.toLowerCase()) } : {}),
        });
      } else if (px) {
        const [pcs, principal] = px;
        const when = format ? x12Period(format, date).date : undefined;
        procedure.push({
          sequence: procedure.length + 1,
          ...(principal ? { type: [{ text: 'Principal procedure' }] } : {}),
          ...(when ? { date: when } : {}),
          procedureCodeableConcept: concept(pcs ? SYSTEM.icd10pcs : SYSTEM.icd9cm, pcs ? code : icd9Procedure(code)),
        });
      }
    }
  }
  return { diagnosis, procedure };
}

/** NM101 entity codes of claim-level providers and their care team role. */
const ROLES: [string[], string][] = [
  [['82', '71'], 'primary'],
  [['DQ'], 'supervisor'],
  [['72', 'ZZ', '73', 'DN', 'P3', 'QB', 'DK'], 'other'],
];

/** A care team member for each provider name loop of a claim or line; returns the sequences it used. */
export function addCareTeam(set: ResourceSet, node: X12Loop, team: ClaimCareTeam[]): number[] {
  const used: number[] = [];
  for (const [codes, role] of ROLES) {
    for (const code of codes) {
      const loop = nameLoop(node, code);
      if (!loop) continue;
      const provider = addParty(set, loop);
      let member = team.find((t) => t.provider.reference === provider.reference);
      if (!member) {
        const taxonomy = el(segmentOf(loop, 'PRV'), 3);
        member = {
          sequence: team.length + 1,
          provider,
          role: concept(SYSTEM.careTeamRole, role),
          ...(taxonomy ? { qualification: concept(SYSTEM.taxonomy, taxonomy) } : {}),
        };
        team.push(member);
      }
      if (!used.includes(member.sequence)) used.push(member.sequence);
    }
  }
  return used;
}

function quantity(value: string, unit: string): Quantity | undefined {
  if (!/^\d*\.?\d+$/.test(value)) return undefined;
  if (unit === 'MJ') return { value: Number(value), unit: 'min', system: 'http://unitsofmeasure.org', code: 'min' };
  if (unit === 'DA') return { value: Number(value), unit: 'd', system: 'http://unitsofmeasure.org', code: 'd' };
  return { value: Number(value) };
}

/**
 * One service line (2400) as a Claim item: SV1 (professional: SV101 procedure and modifiers, SV102 charge, SV104
 * units, SV105 place of service, SV107 diagnosis pointers) or SV2 (institutional: SV201 revenue code, SV202
 * procedure, SV203 charge, SV205 units); DTP*472 the service date. `warn` hears pointers that point nowhere.
 */
export function serviceLine(line: X12Loop, sequence: number, diagnoses: number, placeOfService: string, warn: (message: string) => void): ClaimItem {
  const sv1 = segmentOf(line, 'SV1');
  const sv2 = segmentOf(line, 'SV2');
  const [qualifier = '', code = '', m1 = '', m2 = '', m3 = '', m4 = '', description = ''] = components(sv1 ?? sv2, sv1 ? 1 : 2);
  const revenue = sv2 ? el(sv2, 1) : '';
  const product: CodeableConcept = code
    ? { coding: [procedureCoding(qualifier, code)], ...(description ? { text: description } : {}) }
    : revenue
      ? concept(SYSTEM.revenue, revenue)
      : { text: 'No procedure code on the service line' };
  const modifiers = [m1, m2, m3, m4].filter(Boolean).map(modifierCoding);
  const net = money(sv1 ? el(sv1, 2) : el(sv2, 3));
  const qty = sv1 ? quantity(el(sv1, 4), el(sv1, 3)) : quantity(el(sv2, 5), el(sv2, 4));
  const pos = (sv1 && el(sv1, 5)) || placeOfService;
  const dtp = segmentOf(line, 'DTP', '472');
  const when = dtp ? x12Period(el(dtp, 2), el(dtp, 3)) : {};
  const pointers: number[] = [];
  for (const p of sv1 ? components(sv1, 7) : []) {
    const n = Number(p);
    if (Number.isInteger(n) && n >= 1 && n <= diagnoses) pointers.push(n);
    else warn(`diagnosis pointer ${JSON.stringify(p)} of service line ${sequence} points to no diagnosis (the claim has ${diagnoses})`);
  }
  return {
    sequence,
    ...(pointers.length ? { diagnosisSequence: pointers } : {}),
    ...(revenue ? { revenue: concept(SYSTEM.revenue, revenue) } : {}),
    productOrService: product,
    ...(modifiers.length ? { modifier: modifiers } : {}),
    ...(when.date ? { servicedDate: when.date } : when.period ? { servicedPeriod: when.period } : {}),
    ...(pos ? { locationCodeableConcept: concept(SYSTEM.placeOfService, pos) } : {}),
    ...(qty ? { quantity: qty } : {}),
    ...(net ? { net } : {}),
  };
}
