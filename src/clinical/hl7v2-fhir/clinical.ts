import type { AllergyIntolerance, CodeableConcept, Condition, DiagnosticReport, Observation, ObservationComponent, RelatedPerson } from '@medplum/fhirtypes';
import { clean, codeableConcept, date, entityIdentifier, humanName, quantity, tableConcept } from './datatypes';
import type { Ctx, Ref } from './context';
import type { Field, Seg } from './reader';

const ALLERGY_CATEGORY: Record<string, AllergyIntolerance['category']> = {
  DA: ['medication'],
  FA: ['food'],
  EA: ['environment'],
  AA: ['environment'],
  LA: ['environment'],
  PA: ['environment'],
};
const CRITICALITY: Record<string, AllergyIntolerance['criticality']> = { SV: 'high', MI: 'low', MO: 'low' };

/** AL1 (and IAM) → AllergyIntolerance. */
export function allergy(al1: Seg, ctx: Ctx): AllergyIntolerance | undefined {
  if (!ctx.patient) return undefined;
  const patient = ctx.patient;
  const code = codeableConcept(al1.f(3));
  if (!code) return undefined;
  const type = al1.v(2).toUpperCase();
  const iam = al1.id === 'IAM';
  // IAM-14 reported by (with IAM-15 relationship): the person who told of the allergy
  let asserter: Ref | undefined;
  const reporter = iam ? humanName(al1.f(14)) : undefined;
  if (reporter) {
    const rp = ctx.once<RelatedPerson>('RelatedPerson', `person|${reporter.family ?? ''}|${reporter.given?.[0] ?? ''}`, (id) => ({
      resourceType: 'RelatedPerson',
      id,
      patient,
      name: [reporter],
      ...clean<Partial<RelatedPerson>>({ relationship: [codeableConcept(al1.f(15))].filter((x) => !!x) }),
    }));
    asserter = ctx.ref(rp);
  }
  // the same allergen listed twice is one allergy
  return ctx.once<AllergyIntolerance>('AllergyIntolerance', `${al1.id}|${JSON.stringify(code.coding ?? code.text)}`, (id) => ({
    resourceType: 'AllergyIntolerance',
    id,
    patient,
    clinicalStatus: { coding: [{ code: 'active', display: 'Active', system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical' }] },
    ...clean<Partial<AllergyIntolerance>>({
      category: ALLERGY_CATEGORY[type],
      type: ['DA', 'FA', 'EA', 'AA', 'LA', 'PA', 'MA'].includes(type) ? 'allergy' : undefined,
      code,
      criticality: CRITICALITY[al1.v(4).toUpperCase()],
      reaction: al1
        .reps(5)
        .map((f) => ({ manifestation: [codeableConcept(f) ?? { text: f.text() }], ...clean({ onset: iam ? undefined : ctx.dt(al1.v(6)) }) })),
      onsetDateTime: iam ? ctx.dt(al1.v(11)) : undefined,
      identifier: iam && al1.v(7) ? [{ value: al1.v(7) }] : [],
      asserter,
    }),
  }));
}

/** DG1 → Condition (an encounter diagnosis), DG1-20 its identifier. */
export function diagnosis(dg1: Seg, ctx: Ctx): Condition | undefined {
  if (!ctx.patient) return undefined;
  const subject = ctx.patient;
  const code = codeableConcept(dg1.f(3)) ?? (dg1.v(4) ? { text: dg1.v(4) } : undefined);
  if (!code) return undefined;
  const c = ctx.once<Condition>('Condition', `DG1|${dg1.index}`, (id) => ({
    resourceType: 'Condition',
    id,
    subject,
    category: [
      { coding: [{ code: 'encounter-diagnosis', display: 'Encounter Diagnosis', system: 'http://terminology.hl7.org/CodeSystem/condition-category' }] },
    ],
    ...clean<Partial<Condition>>({
      code,
      identifier: [entityIdentifier(dg1.f(20))].filter((x) => !!x),
      onsetDateTime: ctx.dt(dg1.v(5)),
      recordedDate: ctx.dt(dg1.v(19)),
      // DG1-16 the diagnosing clinician
      asserter: ctx.practitioner(dg1.reps(16)[0]),
      extension: dueTo(dg1.f(22), subject, ctx),
    }),
  }));
  // the visit lists its diagnoses (DG1-6 type, DG1-15 priority)
  const diagnosis = {
    condition: ctx.ref(c),
    ...clean({ use: tableConcept(dg1.v(6), '0052'), rank: /^\d+$/.test(dg1.v(15)) && Number(dg1.v(15)) > 0 ? Number(dg1.v(15)) : undefined }),
  };
  // a DG1 before the PV1 (REF^I12) waits for the visit
  if (ctx.encounterResource) (ctx.encounterResource.diagnosis ??= []).push(diagnosis);
  else ctx.pendingDiagnoses.push(diagnosis);
  return c;
}

/**
 * DG1-22 (parent diagnosis, an EI; DG1-21 is the action code) names the condition this one is due to; the FHIR-Converter templates make it a
 * Condition of its own (known only by that identifier, often a bare assigning authority) and link it by the
 * condition-dueTo extension.
 */
function dueTo(parent: Field | undefined, subject: Ref, ctx: Ctx): Condition['extension'] {
  if (!parent || !parent.text().trim()) return undefined;
  const system = /^\d+(\.\d+)+$/.test(parent.c(3).trim()) ? `urn:oid:${parent.c(3).trim()}` : undefined;
  const identifier = entityIdentifier(parent) ?? clean({ system });
  const cause = ctx.once<Condition>('Condition', `DG1-22|${parent.text()}`, (id) => ({
    resourceType: 'Condition',
    id,
    subject,
    ...clean<Partial<Condition>>({ identifier: identifier ? [identifier] : [] }),
  }));
  return [{ url: 'http://hl7.org/fhir/StructureDefinition/condition-dueTo', valueReference: ctx.ref(cause) }];
}

/** PRB → Condition (a problem-list item). */
export function problem(prb: Seg, ctx: Ctx): void {
  if (!ctx.patient) return;
  const subject = ctx.patient;
  const code = codeableConcept(prb.f(3));
  if (!code) return;
  const resolved = prb.v(9);
  // PRB-1 action code DE: the problem was entered in error (and then has no clinical status)
  const deleted = prb.v(1).toUpperCase() === 'DE';
  const lifeCycle = prb.f(14).c(1).toLowerCase();
  const clinical = resolved ? 'resolved' : ['active', 'recurrence', 'relapse', 'inactive', 'remission', 'resolved'].includes(lifeCycle) ? lifeCycle : 'active';
  ctx.once<Condition>('Condition', `PRB|${prb.index}`, (id) => ({
    resourceType: 'Condition',
    id,
    subject,
    category: [{ coding: [{ code: 'problem-list-item', display: 'Problem List Item', system: 'http://terminology.hl7.org/CodeSystem/condition-category' }] }],
    ...(deleted
      ? { verificationStatus: { coding: [{ code: 'entered-in-error', system: 'http://terminology.hl7.org/CodeSystem/condition-ver-status' }] } }
      : { clinicalStatus: { coding: [{ code: clinical, system: 'http://terminology.hl7.org/CodeSystem/condition-clinical' }] } }),
    ...clean<Partial<Condition>>({
      code,
      identifier: prb.v(4) ? [{ value: prb.v(4) }] : [],
      recordedDate: ctx.dt(prb.v(7)),
      abatementDateTime: ctx.dt(resolved),
      onsetDateTime: ctx.dt(prb.v(16)),
    }),
  }));
}

/** OBX-11, HL7 table 0085 → Observation.status. */
export const OBSERVATION_STATUS: Record<string, Observation['status']> = {
  A: 'amended',
  C: 'corrected',
  D: 'entered-in-error',
  W: 'entered-in-error',
  F: 'final',
  P: 'preliminary',
  R: 'preliminary',
  S: 'preliminary',
  X: 'cancelled',
};

/** One repetition of OBX-5, by the value type (OBX-2), → value[x]. */
function value(type: string, v: Field, unit: Field, ctx: Ctx): Partial<ObservationComponent> {
  switch (type) {
    case 'NM': {
      const q = quantity(v.c(1), unit);
      return q ? { valueQuantity: q } : { valueString: v.c(1) };
    }
    case 'SN': {
      const [cmp, n1, sep, n2] = [v.c(1), v.c(2), v.c(3), v.c(4)];
      // `^2^+` (2 or more) is no quantity: the words as they came
      if (sep === '+') return { valueString: [cmp, n1, sep, n2].join(' ').trim() };
      if (sep === ':' || sep === '/') {
        const a = quantity(n1, undefined);
        const b = quantity(n2, undefined);
        if (a && b) return { valueRatio: { numerator: a, denominator: b } };
      }
      if (sep === '-') {
        const a = quantity(n1, unit);
        const b = quantity(n2, unit);
        if (a && b) return { valueRange: { low: a, high: b } };
      }
      const q = quantity(n1, unit);
      const comparator = ({ '<': '<', '>': '>', '<=': '<=', '>=': '>=' } as const)[cmp as '<'];
      return q ? { valueQuantity: clean({ ...q, comparator })! } : { valueString: v.text() };
    }
    case 'CE':
    case 'CWE':
    case 'CNE':
    case 'CF': {
      const c = codeableConcept(v);
      return c ? { valueCodeableConcept: c } : {};
    }
    case 'DT':
    case 'TS':
    case 'DTM': {
      const d = ctx.dt(v.c(1));
      return d ? { valueDateTime: d } : { valueString: v.c(1) };
    }
    case 'TM': {
      const m = /^(\d{2})(\d{2})?(\d{2})?/.exec(v.c(1));
      return m ? { valueTime: `${m[1]}:${m[2] ?? '00'}:${m[3] ?? '00'}` } : { valueString: v.c(1) };
    }
    case 'DR': {
      const p = clean({ start: ctx.dt(v.c(1)), end: ctx.dt(v.c(2)) });
      return p ? { valuePeriod: p } : {};
    }
    case 'VR':
      // value range: low-high, as text (the bounds need not be numbers)
      return v.c(1) || v.c(2) ? { valueString: `${v.c(1)}-${v.c(2)}` } : {};
    case 'IS':
      return v.c(1).trim() ? { valueCodeableConcept: { coding: [{ code: v.c(1).trim() }] } } : {};
    case 'ST':
    case 'TX':
    case 'FT':
    case 'ID':
    case 'NA':
    case '': {
      const text = v.text().trim();
      return text ? { valueString: text } : {};
    }
    default:
      // ED and RP are documents (a DiagnosticReport), HD, EI, CX … identify things rather than state a value
      return {};
  }
}

/** OBX-5: one value, or (repeated, text included) one component per repetition, as the FHIR-Converter templates give them. */
function values(obx: Seg, code: CodeableConcept, ctx: Ctx): Partial<Observation> {
  const type = obx.v(2).toUpperCase();
  const reps = obx.reps(5);
  if (reps.length > 1) {
    return { component: reps.map((f) => ({ code, ...value(type, f, obx.f(6), ctx) })) };
  }
  return reps[0] ? value(type, reps[0], obx.f(6), ctx) : {};
}

/** OBX → Observation, in the context of an order (basedOn) or a report (which lists it) when given. */
export function observation(obx: Seg, ctx: Ctx, basedOn?: Ref, specimen?: Ref): Observation | undefined {
  if (!ctx.patient && !basedOn) return undefined;
  const code: CodeableConcept | undefined = codeableConcept(obx.f(3));
  if (!code) return undefined;
  return ctx.once<Observation>('Observation', `OBX|${obx.index}`, (id) => ({
    resourceType: 'Observation',
    id,
    status: OBSERVATION_STATUS[obx.v(11).toUpperCase()] ?? 'unknown',
    code,
    ...clean<Partial<Observation>>({
      identifier: [entityIdentifier(obx.f(21))].filter((x) => !!x),
      subject: ctx.patient,
      basedOn: basedOn ? [basedOn] : [],
      specimen,
      ...values(obx, code, ctx),
      referenceRange: obx.v(7) ? [{ text: obx.f(7).text() }] : [],
      interpretation: obx
        .reps(8)
        .map((f) =>
          f.c(1)
            ? { coding: [clean({ code: f.c(1), display: f.c(2) || undefined, system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation' })!] }
            : undefined,
        )
        .filter((x) => !!x),
      effectiveDateTime: ctx.dt(obx.v(14)),
      issued: ctx.instant(obx.v(19)),
      method: codeableConcept(obx.f(17)),
      performer: obx
        .reps(16)
        .map((f) => ctx.practitioner(f))
        .filter((x) => !!x),
      bodySite: codeableConcept(obx.f(20)),
    }),
  }));
}

/** HL7 v2 ED/RP type of data (its major type) → the MIME type's top-level name. */
const MEDIA_TYPES: Record<string, string> = { IM: 'image', AP: 'application', TX: 'text', AU: 'audio', VI: 'video', MU: 'multipart' };

/** An OBX whose value is a document (ED encapsulated data, RP a reference to it) → DiagnosticReport with a presented form. */
export function documentResult(obx: Seg, ctx: Ctx, basedOn?: Ref): DiagnosticReport | undefined {
  const code = codeableConcept(obx.f(3));
  if (!ctx.patient || !code) return undefined;
  const subject = ctx.patient;
  const v = obx.f(5);
  const ed = obx.v(2).toUpperCase() === 'ED';
  const [major, minor] = ed ? [v.c(2), v.c(3)] : [v.c(3), v.c(4)];
  const contentType = major && minor ? `${MEDIA_TYPES[major.toUpperCase()] ?? major.toLowerCase()}/${minor.toLowerCase()}` : undefined;
  const data = ed && /^base64$/i.test(v.c(4)) && v.c(5) ? v.c(5) : undefined;
  return ctx.once<DiagnosticReport>('DiagnosticReport', `OBX|${obx.index}`, (id) => ({
    resourceType: 'DiagnosticReport',
    id,
    status:
      (
        { F: 'final', C: 'corrected', P: 'preliminary', X: 'cancelled', W: 'entered-in-error', D: 'entered-in-error' } as Record<
          string,
          DiagnosticReport['status']
        >
      )[obx.v(11).toUpperCase()] ?? 'unknown',
    code,
    subject,
    ...clean<Partial<DiagnosticReport>>({
      identifier: [entityIdentifier(obx.f(21))].filter((x) => !!x),
      basedOn: basedOn ? [basedOn] : [],
      effectiveDateTime: ctx.dt(obx.v(14)),
      issued: ctx.instant(obx.v(19)),
      presentedForm: [
        clean({ contentType: contentType ?? (data ? 'application/octet-stream' : undefined), data, url: !ed && v.c(1) ? v.c(1) : undefined }),
      ].filter((x) => !!x),
    }),
  }));
}
