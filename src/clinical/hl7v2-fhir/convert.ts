import type { Bundle, BundleEntry, Coverage, DiagnosticReport, Immunization, Resource, ServiceRequest } from '@medplum/fhirtypes';
import type { Hl7v2Message } from '@/clinical/hl7v2/types';
import { allergy, diagnosis, documentResult, observation, problem } from './clinical';
import { chargeItem } from './charge';
import { consent } from './consent';
import { type ConvertOptions, Ctx, DEFAULTS, type Ref } from './context';
import { codeableConcept } from './datatypes';
import { appointment, documentReference } from './documents';
import { accident, deathAndAutopsy, referral } from './events';
import { messageHeader, provenances, sendingDevice } from './header';
import { employerPolicyHolder } from './insurance';
import { chargedDispense, medicationDispense } from './dispense';
import { medicationRequest } from './medication';
import { note } from './notes';
import { diagnosticReport, immunization, lateOrderControl, parentOrders, serviceRequest, specimen } from './orders';
import { encounter } from './encounter';
import { coverage, disability, guarantor, insuranceDetails, mother, patient, relatedPerson } from './patient';
import { chargedProcedure, deathProcedures, procedure } from './procedures';
import { type Seg, segs } from './reader';
import { MERGE_EVENTS, mergeLinkages } from './merges';
import { linkToVisit } from './visit-links';

/** The message types (MSH-9.1) converted; others are `unsupported`. */
export const SUPPORTED_TYPES = ['ADT', 'BAR', 'DFT', 'MDM', 'OMG', 'OML', 'ORM', 'ORU', 'OUL', 'PPR', 'RDE', 'RDS', 'REF', 'SIU', 'VXU'] as const;

/**
 * Message types whose OBR are results (a DiagnosticReport); elsewhere an OBR with a result status (OBR-25) is one,
 * except in orders (ORM, OML) and documents (MDM), where the OBR is the order and its OBX what supports it. A
 * referral (REF) carries its clinical information as results, each OBR with or without a status (as the
 * FHIR-Converter templates read it).
 */
const RESULT_TYPES = new Set(['ORU', 'OUL', 'REF']);
const ORDER_TYPES = new Set(['ORM', 'OML', 'MDM']);
const PHARMACY = new Set(['RXE', 'RXO', 'RXD', 'RXG']);
/** What an ORC's order group holds: another order control, a request, an immunization or pharmacy detail */
const ORDER_PARTS = new Set(['ORC', 'OBR', 'RXA', ...PHARMACY]);

export interface ConversionResult {
  bundle: Bundle;
  /** Segments read but not converted (ids, with how many), for the node's log */
  skipped: Record<string, number>;
}

export class UnsupportedMessageError extends Error {
  constructor(readonly messageType: string) {
    super(`${messageType || 'a message without MSH-9'} is not a message type this converter maps (it maps ${SUPPORTED_TYPES.join(', ')})`);
  }
}

const HANDLED = new Set([
  ...['MSH', 'SFT', 'EVN', 'PID', 'PD1', 'PV1', 'PV2', 'NK1', 'GT1', 'IN1', 'IN2', 'DB1', 'AL1', 'IAM', 'DG1', 'PRB', 'PR1', 'PDA', 'ACC', 'RF1'],
  ...['ORC', 'OBR', 'OBX', 'SPM', 'RXA', 'RXR', 'TXA', 'SCH', 'TQ1', 'AIS', 'AIG', 'AIL', 'AIP'],
]);

/**
 * An HL7 v2 message → a FHIR R4 Bundle, modelled on the HL7 v2-to-FHIR mappings of the Microsoft FHIR-Converter
 * templates: PID (+ PD1, and GT1/IN1/IN2/DB1 when they speak of the patient) → Patient, a merge's PID and MRG → Linkage,
 * PV1/PV2 → Encounter (its PL locations → Locations, locations.ts; visit.ts),
 * NK1 → Patient.contact, NK1/GT1/IN1/IN2 → RelatedPerson, IN1 → Coverage, AL1/IAM → AllergyIntolerance, DG1/PRB/PDA → Condition, PR1 (and
 * its parent PR1-25), PDA's death certification and autopsy, FT1-25 within an order → Procedure, ORC/OBR/RF1/AIS → ServiceRequest
 * (and DiagnosticReport for results), OBX → Observation (an ED/RP document → DiagnosticReport), PDA/ACC → Observation,
 * SPM → Specimen, RXA → Immunization, RXO/RXE (+ RXR) →
 * MedicationRequest, RXD (and FT1-29 of an order) → MedicationDispense, NTE → a note of what it follows,
 * FT1 → ChargeItem, CON → Consent, TXA → DocumentReference, SCH/AIx → Appointment, MSH →
 * MessageHeader, MSH/EVN → Provenance. Ids are derived from the
 * message, so the same message gives the same bundle; every reference points to a resource of the bundle. Throws
 * UnsupportedMessageError for a message type outside SUPPORTED_TYPES.
 */
export function convertMessage(message: Hl7v2Message, options: ConvertOptions = {}): ConversionResult {
  const type = message.message_type.toUpperCase();
  if (!(SUPPORTED_TYPES as readonly string[]).includes(type)) throw new UnsupportedMessageError(type);
  const event = `${type}^${message.trigger_event.toUpperCase()}`;
  const opts = { ...DEFAULTS, ...options };
  const ctx = new Ctx(`${message.sending_application}|${message.sending_facility}|${message.control_id}|${message.sent_at}`, message.sending_facility, opts);
  const all = segs(message);
  const msh = all[0]!;
  const sft = all.find((s) => s.id === 'SFT');
  const evn = all.find((s) => s.id === 'EVN');
  const skipped: Record<string, number> = {};
  if (opts.messageHeader) messageHeader(msh, sft, ctx);
  // a merge or change of identifier names records and says which replaces which: a Linkage is all it gives
  const merge = MERGE_EVENTS[event];
  if (merge) Object.assign(skipped, mergeLinkages(all, merge, ctx));
  const body = merge ? all.slice(0, 1) : all;

  let orc: Seg | undefined;
  let order: ServiceRequest | undefined;
  let report: DiagnosticReport | undefined;
  let specimenRef: Ref | undefined;
  let immunizationRef: Ref | undefined;
  // the MedicationRequest of the order's RXO, which the pharmacy's RXE is based on
  let placed: Ref | undefined;
  // the MedicationRequest (RXE, else RXO) of the order, which its dispenses (RXD) fill
  let prescribed: Ref | undefined;
  // an OBX after SPM describes the specimen (or its container), not a result of the order
  let specimenPart = false;
  // each TXA with the OBX that follow it (its content), and how many resources were made before it
  const docs: { txa: Seg; body: Seg[]; mark: number }[] = [];
  let sch: Seg | undefined;
  let insured: { in1: Seg; coverage: Coverage } | undefined;
  const schResources: Seg[] = [];
  // OMG: a PV1 after an order opens its prior results (PRIOR_RESULT): their orders, documents and observations
  // support it (ServiceRequest.supportingInfo, as in the FHIR-Converter templates)
  let supported: ServiceRequest | undefined;
  // the resource the segment just read made, which an NTE after it annotates
  let noted: Resource | undefined;
  const support = (r: Resource | undefined) => {
    if (supported && r && r !== supported && !supported.supportingInfo?.some((x) => x.reference === `${r.resourceType}/${r.id}`))
      (supported.supportingInfo ??= []).push(ctx.ref(r));
  };
  const next = (i: number, id: string) => (all[i + 1]?.id === id ? all[i + 1] : undefined);
  // segments that come before PID (RF1 of REF, SCH of SIU) are about the message's patient too
  const firstPid = all.findIndex((x) => x.id === 'PID');
  if (firstPid > 0 && !merge) patient(all[firstPid]!, ctx, next(firstPid, 'PD1'));

  for (let i = 1; i < body.length; i++) {
    const s = body[i]!;
    if (s.id !== 'NTE') noted = undefined;
    switch (s.id) {
      case 'PID':
        ctx.encounter = undefined;
        insured = undefined;
        patient(s, ctx, next(i, 'PD1'));
        if (!all.some((x) => x.id === 'NK1')) mother(s, ctx);
        break;
      case 'GT1':
        guarantor(s, ctx);
        break;
      case 'IN2':
        insuranceDetails(s, ctx, insured);
        // IN2 completes the IN1 it follows
        if (insured) employerPolicyHolder(s, insured.in1, insured.coverage, ctx);
        insured = undefined;
        break;
      case 'DB1':
        disability(s, ctx);
        break;
      case 'PV1':
        // (the order before the first prior results: the templates give every prior result to it)
        if (type === 'OMG' && order) supported ??= order;
        encounter(
          s,
          ctx,
          all.slice(i + 1, i + 4).find((x) => x.id === 'PV2'),
        );
        break;
      case 'NK1':
        relatedPerson(s, ctx);
        break;
      case 'IN1': {
        const c = coverage(s, ctx);
        insured = c ? { in1: s, coverage: c } : undefined;
        break;
      }
      case 'AL1':
      case 'IAM':
        noted = allergy(s, ctx);
        break;
      case 'DG1': {
        const condition = diagnosis(s, ctx);
        // a diagnosis given with an order is the reason for it
        if (condition && order && ['ORM', 'OML', 'OMG'].includes(type)) (order.reasonReference ??= []).push(ctx.ref(condition));
        break;
      }
      case 'PRB':
        problem(s, ctx);
        break;
      case 'PR1':
        procedure(s, ctx);
        break;
      case 'PDA':
        deathAndAutopsy(s, ctx);
        deathProcedures(s, ctx);
        break;
      case 'ACC':
        accident(s, ctx);
        break;
      case 'RF1':
        referral(s, ctx);
        break;
      case 'CON':
        consent(s, ctx);
        break;
      case 'FT1': {
        const charge = chargeItem(s, ctx);
        // the procedure billed (FT1-25) is one of the order the transaction belongs to, known by its placer
        // number (ORC-2, else OBR-2): without one there is no order to tie it to, and no Procedure
        const placer = last(all, i, 'ORC')?.v(2) || last(all, i, 'OBR')?.v(2);
        if (placer) {
          chargedProcedure(s, placer, ctx, charge);
          chargedDispense(s, ctx);
        }
        break;
      }
      case 'ORC': {
        let previous: Seg | undefined;
        for (let j = i - 1; j >= 0 && !previous; j--) if (ORDER_PARTS.has(all[j]!.id)) previous = all[j];
        if (previous?.id === 'OBR' && order && !after(all, i, (x) => x.id === 'OBR' || x.id === 'RXA' || PHARMACY.has(x.id))) {
          // the order group's ORC after its OBR: the same order
          lateOrderControl(s, order, ctx, report);
          noted = order;
          break;
        }
        orc = s;
        specimenPart = false;
        placed = undefined;
        prescribed = undefined;
        order = undefined;
        report = undefined;
        immunizationRef = undefined;
        // an ORC alone (no OBR, RXA or pharmacy detail before the next ORC) is an order of its own
        const detail = after(all, i, (x) => ORDER_PARTS.has(x.id));
        if (!detail || detail.id === 'ORC' || detail.id === 'RXA') order = serviceRequest(s, undefined, ctx);
        noted = order;
        support(order);
        break;
      }
      case 'OBR': {
        const spm = after(all, i, (x) => x.id === 'SPM' || x.id === 'OBR' || x.id === 'ORC');
        specimenRef = spm?.id === 'SPM' ? specimen(spm, ctx) && ctx.ref(specimen(spm, ctx)!) : undefined;
        order = serviceRequest(orc, s, ctx, specimenRef);
        noted = order;
        support(order);
        report = RESULT_TYPES.has(type) || (s.v(25) && !ORDER_TYPES.has(type)) ? diagnosticReport(orc, s, ctx, order && ctx.ref(order)) : undefined;
        if (report && specimenRef) report.specimen = [specimenRef];
        orc = undefined;
        specimenPart = false;
        break;
      }
      case 'RXO':
      case 'RXE': {
        const rxr = after(all, i, (x) => x.id === 'RXR' || x.id === 'ORC' || PHARMACY.has(x.id));
        const request = medicationRequest(orc, s, rxr?.id === 'RXR' ? rxr : undefined, ctx, s.id === 'RXE' ? placed : undefined);
        if (s.id === 'RXO') placed = request && ctx.ref(request);
        if (request) prescribed = ctx.ref(request);
        noted = request;
        break;
      }
      case 'RXD': {
        const rxr = after(all, i, (x) => x.id === 'RXR' || x.id === 'ORC' || PHARMACY.has(x.id));
        noted = medicationDispense(orc, s, rxr?.id === 'RXR' ? rxr : undefined, ctx, prescribed);
        break;
      }
      case 'SPM':
        specimen(s, ctx);
        specimenPart = true;
        break;
      case 'SAC':
        // OUL: the results of the order follow the specimen's container (OUL^R24), or a new order does
        if (type === 'OUL') specimenPart = false;
        skipped[s.id] = (skipped[s.id] ?? 0) + 1;
        break;
      case 'RXA': {
        const rxr = after(all, i, (x) => x.id === 'RXR' || x.id === 'RXA' || x.id === 'ORC');
        const imm = immunization(s, ctx, rxr?.id === 'RXR' ? rxr : undefined, orc);
        immunizationRef = imm && ctx.ref(imm);
        noted = imm;
        break;
      }
      case 'OBX': {
        docs.at(-1)?.body.push(s);
        // the OBX of a document message are the document's content, not results of its orders (as in the FHIR-Converter templates)
        const basedOn = order && !specimenPart && type !== 'MDM' ? ctx.ref(order) : undefined;
        if (['ED', 'RP'].includes(s.v(2).toUpperCase())) {
          noted = documentResult(s, ctx, basedOn);
          support(noted);
          break;
        }
        // immunization funding source and program eligibility are facts of the Immunization (v2-to-FHIR IG)
        const loinc = s.f(3).c(1);
        if (immunizationRef && (loinc === '30963-3' || loinc === '64994-7')) {
          const imm = ctx.resources.find((r) => `Immunization/${r.id}` === immunizationRef!.reference) as Immunization | undefined;
          const concept = codeableConcept(s.f(5));
          if (imm && concept) {
            if (loinc === '30963-3') imm.fundingSource = concept;
            else (imm.programEligibility ??= []).push(concept);
            break;
          }
        }
        const obs = observation(s, ctx, basedOn, specimenRef);
        noted = obs;
        if (obs && immunizationRef) obs.partOf = [immunizationRef];
        if (obs && report && !specimenPart) (report.result ??= []).push(ctx.ref(obs));
        support(obs);
        break;
      }
      case 'TQ1':
        // an order's timing: an NTE after it is still about the order
        noted = order;
        break;
      case 'NTE':
        note(s, noted, ctx);
        break;
      case 'TXA':
        docs.push({ txa: s, body: [], mark: ctx.resources.length });
        break;
      case 'SCH':
        sch = s;
        break;
      case 'AIS':
      case 'AIG':
      case 'AIL':
      case 'AIP':
        schResources.push(s);
        break;
      default:
        if (!HANDLED.has(s.id)) skipped[s.id] = (skipped[s.id] ?? 0) + 1;
    }
  }
  if (docs.length) {
    const orders = ctx.resources.map((r, at) => ({ r, at })).filter(({ r }) => r.resourceType === 'ServiceRequest');
    const made = docs.map((d) => ({ ...d, doc: documentReference(d.txa, ctx, d.body, message.trigger_event.toUpperCase()) }));
    // the orders of a document are its reason (the FHIR-Converter templates link ServiceRequest.reasonReference),
    // not the parent orders (ORC-8) they belong to: an order is of the first document after it (OUL^R23 carries
    // a document per order group), else of the last one
    const parents = parentOrders(ctx.resources);
    for (const { r, at } of orders) {
      if (parents.has(`ServiceRequest/${r.id}`)) continue;
      const doc = (made.find((d) => d.mark > at) ?? made.at(-1))!.doc;
      if (doc) ((r as ServiceRequest).reasonReference ??= []).push(ctx.ref(doc));
    }
  }
  if (sch)
    appointment(
      sch,
      ctx,
      message.trigger_event.toUpperCase(),
      schResources,
      all.find((x) => x.id === 'TQ1'),
    );
  linkToVisit(ctx.resources, event);
  if (opts.provenance) {
    const targets = ctx.resources.filter((r) => !['MessageHeader', 'Provenance', 'Device'].includes(r.resourceType)).map((r) => ctx.ref(r));
    provenances(msh, evn, sendingDevice(msh, sft, ctx), ctx, targets);
  }
  return { bundle: toBundle(ctx.resources, message, opts.bundleType), skipped };
}

/** The first segment after `i` that `test` accepts (as `all.slice(i + 1).find(test)`, without the copy). */
function after(all: Seg[], i: number, test: (s: Seg) => boolean): Seg | undefined {
  for (let j = i + 1; j < all.length; j++) if (test(all[j]!)) return all[j];
  return undefined;
}

/** The last segment `id` before `i`. */
function last(all: Seg[], i: number, id: string): Seg | undefined {
  for (let j = i - 1; j >= 0; j--) if (all[j]!.id === id) return all[j];
  return undefined;
}

function toBundle(resources: Resource[], message: Hl7v2Message, type: 'transaction' | 'batch' | 'collection'): Bundle {
  const entry: BundleEntry[] = resources.map((resource) => ({
    fullUrl: `urn:uuid:${resource.id}`,
    resource,
    ...(type === 'collection' ? {} : { request: { method: 'PUT' as const, url: `${resource.resourceType}/${resource.id}` } }),
  }));
  return {
    resourceType: 'Bundle',
    type,
    ...(message.control_id ? { identifier: { value: message.control_id } } : {}),
    entry,
  };
}
