import type { Device, MessageHeader, Provenance } from '@medplum/fhirtypes';
import { clean, codeableConcept, tableConcept } from './datatypes';
import type { Ctx, Ref } from './context';
import type { Field, Seg } from './reader';

/** An HD (namespace 1, universal id 2, type 3) as an endpoint URI: the OID or URI it gives, else a local URL. */
function endpoint(hd: Field, fallback: string): string {
  const uid = hd.c(2).trim();
  if (uid && /^\d+(\.\d+)+$/.test(uid)) return `urn:oid:${uid}`;
  if (uid && /^(https?|urn|mllp):/i.test(uid)) return uid;
  const name = hd.c(1).trim() || fallback;
  return `http://example.com/v2-to-fhir-converter/Application/${encodeURIComponent(name)}`;
}

/** The sending application (MSH-3, with SFT's software) as a Device, the author of the converted data. */
export function sendingDevice(msh: Seg, sft: Seg | undefined, ctx: Ctx): Ref {
  const app = msh.f(3);
  const name = app.c(1).trim() || app.c(2).trim() || 'sending application';
  const d = ctx.once<Device>(
    'Device',
    `MSH-3|${name}`,
    (id) => ({
      resourceType: 'Device',
      id,
      deviceName: [{ name, type: 'user-friendly-name' }],
      ...clean<Partial<Device>>({
        identifier: app.c(2) ? [{ value: app.c(2), system: 'urn:ietf:rfc:3986' }] : [],
        manufacturer: sft?.f(1).c(1) || undefined,
        version: sft?.v(2) ? [{ value: sft.v(2) }] : [],
      }),
    }),
    true,
  );
  return ctx.ref(d);
}

/** MSH (+ the first SFT) → MessageHeader. */
export function messageHeader(msh: Seg, sft: Seg | undefined, ctx: Ctx): MessageHeader {
  const app = msh.f(3);
  const trigger = msh.f(9);
  const destination = [msh.f(5)].filter((f) => !f.empty).map((f) => ({ name: f.c(1) || undefined, endpoint: endpoint(f, 'receiver') }));
  return ctx.once<MessageHeader>('MessageHeader', 'MSH', (id) => ({
    resourceType: 'MessageHeader',
    id,
    eventCoding: clean({
      code: trigger.c(2) || trigger.c(1),
      system: 'http://terminology.hl7.org/CodeSystem/v2-0003',
      display: [trigger.c(1), trigger.c(2), trigger.c(3)].filter(Boolean).join('^'),
    })!,
    source: clean({ name: app.c(1) || undefined, endpoint: endpoint(app, 'sender'), software: sft?.v(3) || undefined, version: sft?.v(2) || undefined })!,
    ...clean<Partial<MessageHeader>>({
      destination,
      meta: msh.v(11) ? { tag: [{ code: msh.v(11), system: 'http://terminology.hl7.org/CodeSystem/v2-0103' }] } : undefined,
      language: /^[a-z]{2}(-[A-Z]{2})?$/.test(msh.v(19)) ? msh.v(19) : undefined,
    }),
  }));
}

/**
 * Provenance of the conversion: recorded at MSH-7, by the sending application, over every resource made; and,
 * with an EVN, of the event (EVN-2 recorded, EVN-6 occurred, EVN-4 reason, EVN-5 operator).
 */
export function provenances(msh: Seg, evn: Seg | undefined, author: Ref, ctx: Ctx, targets: Ref[]): void {
  if (!targets.length) return;
  const trigger = [msh.f(9).c(1), msh.f(9).c(2), msh.f(9).c(3)].filter(Boolean).join('^');
  const sentAt = ctx.instant(msh.v(7));
  if (sentAt) {
    ctx.once<Provenance>('Provenance', 'MSH', (id) => ({
      resourceType: 'Provenance',
      id,
      target: targets,
      recorded: sentAt,
      occurredDateTime: sentAt,
      activity: { coding: [{ code: 'CREATE', display: 'create', system: 'http://terminology.hl7.org/CodeSystem/v3-DataOperation' }], text: trigger },
      agent: [{ type: { coding: [{ code: 'author', system: 'http://terminology.hl7.org/CodeSystem/provenance-participant-type' }] }, who: author }],
    }));
  }
  if (!evn) return;
  const recorded = ctx.instant(evn.v(2)) ?? sentAt;
  if (!recorded) return;
  const operator = ctx.practitioner(evn.reps(5)[0]);
  ctx.once<Provenance>('Provenance', 'EVN', (id) => ({
    resourceType: 'Provenance',
    id,
    target: targets,
    recorded,
    agent: [{ who: operator ?? author }],
    ...clean<Partial<Provenance>>({
      occurredDateTime: ctx.dt(evn.v(6)),
      activity: tableConcept(evn.v(1) || msh.f(9).c(2), '0003', trigger),
      reason: [codeableConcept(evn.f(4))].filter((x) => !!x),
    }),
  }));
}
