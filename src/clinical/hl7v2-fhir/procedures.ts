import type { ChargeItem, Procedure, ProcedurePerformer } from '@medplum/fhirtypes';
import { clean, codeableConcept, entityIdentifier } from './datatypes';
import type { Ctx, Ref } from './context';
import type { Field, Seg } from './reader';

/**
 * The Procedures HL7 v2 messages carry, as the Microsoft FHIR-Converter templates map them: PR1 (and the parent
 * procedure PR1-25 names), the death certification and the autopsy a PDA states, and the procedure code FT1-25
 * bills within an order (ORM, OML, OMG, ORU, RDE, RDS, DFT).
 */

const LOCAL = 'http://example.com/v2-to-fhir-converter/CodeSystem';

function performer(actor: Ref | undefined, code: string, display: string): ProcedurePerformer | undefined {
  return actor ? { actor, function: { coding: [{ code, display, system: `${LOCAL}/performer-role` }], text: display } } : undefined;
}

/**
 * PR1 → Procedure of the context's patient and visit: PR1-3 code (else PR1-4 as text), PR1-5 when, PR1-6
 * category, PR1-8 anesthesiologist, PR1-11 surgeon, PR1-12 other practitioner, PR1-15 reason, PR1-19 identifier,
 * PR1-20 action code D (deleted) as entered-in-error (else the status is unknown), PR1-25 the procedure it is
 * part of (a Procedure of its own).
 */
export function procedure(pr1: Seg, ctx: Ctx): void {
  if (!ctx.patient) return;
  const subject = ctx.patient;
  const code = codeableConcept(pr1.f(3)) ?? (pr1.v(4) ? { text: pr1.v(4) } : undefined);
  if (!code) return;
  const parentId = entityIdentifier(pr1.f(25));
  const parent = parentId
    ? ctx.once<Procedure>('Procedure', `PR1-25|${parentId.system ?? ''}|${parentId.value}`, (id) => ({
        resourceType: 'Procedure',
        id,
        status: 'unknown',
        identifier: [parentId],
        subject,
      }))
    : undefined;
  ctx.once<Procedure>('Procedure', `PR1|${pr1.index}`, (id) => ({
    resourceType: 'Procedure',
    id,
    // a PR1 does not say whether the procedure was done (the v2-to-FHIR IG: unknown unless the message says)
    status: pr1.v(20).toUpperCase() === 'D' ? 'entered-in-error' : 'unknown',
    subject,
    ...clean<Partial<Procedure>>({
      identifier: [entityIdentifier(pr1.f(19))].filter((x) => !!x),
      code,
      category: codeableConcept(pr1.f(6)),
      encounter: ctx.encounter,
      performedDateTime: ctx.dt(pr1.v(5)),
      performer: [
        ...pr1.reps(8).map((f) => performer(ctx.practitioner(f), 'anesthesiologist', 'Anesthesiologist')),
        ...pr1.reps(11).map((f) => performer(ctx.practitioner(f), 'surgeon', 'Surgeon')),
        ...pr1.reps(12).map((f) => performer(ctx.practitioner(f), 'procedure-practitioner', 'Procedure Practitioner')),
      ].filter((x) => !!x),
      reasonCode: [codeableConcept(pr1.f(15))].filter((x) => !!x),
      partOf: parent ? [ctx.ref(parent)] : [],
    }),
  }));
}

/** Y/N → completed/not-done, else unknown. */
function done(flag: string): Procedure['status'] {
  const f = flag.trim().toUpperCase();
  return f === 'Y' ? 'completed' : f === 'N' ? 'not-done' : 'unknown';
}

/**
 * PDA → the death certification (when PDA-4 death certified date/time and PDA-5 certified by are given; PDA-3
 * certificate signed Y/N as the status) and the autopsy (when PDA-7 autopsy start/end and PDA-8 performed by are
 * given; PDA-6 autopsy indicator as the status), each a Procedure of the patient.
 */
export function deathProcedures(pda: Seg, ctx: Ctx): void {
  if (!ctx.patient) return;
  const subject = ctx.patient;
  const event = (key: string, code: string, display: string, by: Field, role: string, rest: Partial<Procedure>) => {
    const actor = ctx.practitioner(by);
    ctx.once<Procedure>('Procedure', `${key}|${pda.index}`, (id) => ({
      resourceType: 'Procedure',
      id,
      status: 'unknown',
      code: { coding: [{ code, display, system: `${LOCAL}/procedure-code` }] },
      subject,
      ...rest,
      ...clean<Partial<Procedure>>({ performer: actor ? [{ actor, function: { text: role } }] : [] }),
    }));
  };
  if (pda.v(4) && pda.f(5).c(1).trim()) {
    event('PDA-death', 'death-certification', 'Death Certification', pda.f(5), 'Death Certified By', {
      status: done(pda.v(3)),
      ...clean<Partial<Procedure>>({ performedDateTime: ctx.dt(pda.v(4)) }),
    });
  }
  if (pda.f(7).c(1).trim() && pda.f(8).c(1).trim()) {
    const period = clean({ start: ctx.dt(pda.f(7).c(1)), end: ctx.dt(pda.f(7).c(2)) });
    event('PDA-autopsy', 'autopsy-performed', 'Autopsy Performed', pda.f(8), 'Autopsy Performed By', {
      status: done(pda.v(6)),
      ...clean<Partial<Procedure>>({ performedPeriod: period }),
    });
  }
}

/**
 * FT1-25 (the procedure code billed) within an order → a Procedure of the patient, one per code and order (ORC-2
 * or OBR-2 placer number in `order`), which the transaction's ChargeItem is for (ChargeItem.service).
 */
export function chargedProcedure(ft1: Seg, order: string, ctx: Ctx, charge: ChargeItem | undefined): void {
  const code = codeableConcept(ft1.f(25));
  if (!ctx.patient || !code) return;
  const subject = ctx.patient;
  const p = ctx.once<Procedure>('Procedure', `FT1-25|${ft1.f(25).text()}|${order}`, (id) => ({
    resourceType: 'Procedure',
    id,
    status: 'unknown',
    code,
    subject,
  }));
  if (charge) (charge.service ??= []).push(ctx.ref(p));
}
