import type { Bundle, Encounter, Location, Observation, Patient, Provenance } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseMessage } from '@/clinical/hl7v2';
import { hl7Sample } from '../../../tests/support/clinical/hl7v2';
import { r4Errors } from '../../../tests/support/clinical/x12';
import { failure, runNode, testContext } from '../../../tests/support/engine/node-context';
import { hl7v2ToFhir } from './hl7v2-to-fhir';
import { hl7v2ToFhirNode as toFhir } from './hl7v2-to-fhir.execute';

const EXAMPLE =
  'MSH|^~\\&|ADTApp|GHH|EHRApp|GHR|20240105083000-0500||ADT^A01^ADT_A01|MSG00001|P|2.5.1\rPID|1||PATID1234^^^GHH^MR||EVERYMAN^ADAM^A||19610615|M\rPV1|1|I|2000^2012^01\r';

function resources<T>(bundle: Bundle, type: string): T[] {
  return (bundle.entry ?? []).map((e) => e.resource!).filter((r) => r.resourceType === type) as T[];
}

describe('hl7v2-to-fhir', () => {
  it('works with its default config: the ADT^A01 sample becomes a valid transaction bundle', async () => {
    const ctx = testContext();
    const r = await runNode(toFhir, {}, { message: parseMessage(hl7Sample('ADT-A01-01.hl7')) }, ctx);
    expect(Object.keys(r.outputs)).toEqual(['bundle']);
    const bundle = r.outputs.bundle as Bundle;
    expect(bundle.type).toBe('transaction');
    expect(r4Errors(bundle)).toEqual([]);
    expect(bundle.entry!.every((e) => e.request?.method === 'PUT' && e.request.url === `${e.resource!.resourceType}/${e.resource!.id}`)).toBe(true);
    const [patient] = resources<Patient>(bundle, 'Patient');
    expect(patient!.identifier!.map((i) => i.value)).toContain('PATID1234');
    expect([patient!.name![0]!.family, patient!.birthDate, patient!.gender]).toEqual(['EVERYMAN', '1988-08-18', 'male']);
    expect(resources<Encounter>(bundle, 'Encounter')[0]!.class.code).toBe('PRENC');
    expect(ctx.logs[0]!.message).toMatch(/^ADT\^A01 MSG00001 → \d+ resource\(s\): MessageHeader 1, Patient 1, /);
    expect(ctx.logs[1]!.message).toMatch(/^not mapped: .*ROL ×3/);
  });

  it('gives what its documentation example says', async () => {
    const r = await runNode(toFhir, {}, { message: parseMessage(EXAMPLE) });
    const bundle = r.outputs.bundle as Bundle;
    expect(bundle.entry!.map((e) => e.resource!.resourceType)).toEqual([
      'MessageHeader',
      'Patient',
      'Encounter',
      'Location',
      'Location',
      'Location',
      'Device',
      'Provenance',
    ]);
    const [patient] = resources<Patient>(bundle, 'Patient');
    expect(patient).toMatchObject({
      identifier: [{ value: 'PATID1234' }],
      name: [{ family: 'EVERYMAN', given: ['ADAM', 'A'] }],
      birthDate: '1961-06-15',
      gender: 'male',
    });
    const [encounter] = resources<Encounter>(bundle, 'Encounter');
    expect(encounter).toMatchObject({ class: { code: 'IMP' }, subject: { reference: `Patient/${patient!.id}` } });
    const bed = resources<Location>(bundle, 'Location').find((l) => `Location/${l.id}` === encounter!.location![0]!.location.reference);
    expect(bed?.name).toBe('01');
    expect(resources<Provenance>(bundle, 'Provenance')[0]!.recorded).toBe('2024-01-05T08:30:00-05:00');
    expect(r4Errors(bundle)).toEqual([]);
  });

  it('converts an ORU^R01 with its results, and the same message always to the same bundle', async () => {
    const message = parseMessage(hl7Sample('LAB-ORU-1.hl7'));
    const a = (await runNode(toFhir, {}, { message })).outputs.bundle as Bundle;
    const b = (await runNode(toFhir, {}, { message })).outputs.bundle as Bundle;
    expect(b).toEqual(a);
    const rbc = resources<Observation>(a, 'Observation').find((o) => o.code.coding?.[0]?.code === '11273-0')!;
    expect(rbc).toMatchObject({ status: 'preliminary', valueQuantity: { value: 4.06, unit: 'tera.l-1' }, effectiveDateTime: '2014-10-06T06:27:00+07:00' });
    expect(r4Errors(a)).toEqual([]);
  });

  it('honours bundle_type, include_message_header, include_provenance and timezone', async () => {
    const message = parseMessage(EXAMPLE.replace('20240105083000-0500', '20240105083000'));
    const plain = (await runNode(toFhir, { bundle_type: 'collection', include_message_header: false, include_provenance: false }, { message })).outputs
      .bundle as Bundle;
    expect(plain.type).toBe('collection');
    expect(plain.entry!.map((e) => e.resource!.resourceType)).toEqual(['Patient', 'Encounter', 'Location', 'Location', 'Location']);
    expect(plain.entry!.some((e) => e.request)).toBe(false);
    expect(r4Errors(plain)).toEqual([]);
    const zoned = (await runNode(toFhir, { timezone: '-05:00' }, { message })).outputs.bundle as Bundle;
    expect(resources<Provenance>(zoned, 'Provenance')[0]!.recorded).toBe('2024-01-05T08:30:00-05:00');
  });

  it('routes a message type it does not map to invalid, or fails with on_invalid "fail"', async () => {
    const ack = parseMessage('MSH|^~\\&|EHRApp|GHR|ADTApp|GHH|20240105083001||ACK^A01^ACK|X1|P|2.5.1\rMSA|AA|MSG00001\r');
    const r = await runNode(toFhir, {}, { message: ack });
    expect(Object.keys(r.outputs)).toEqual(['invalid']);
    expect(r.outputs.invalid).toMatchObject({
      message: ack,
      error: { code: 'HL7_UNSUPPORTED', message: expect.stringMatching(/^ACK is not a message type this converter maps/) },
    });
    const e = await failure(runNode(toFhir, { on_invalid: 'fail' }, { message: ack }));
    expect(e.code).toBe('HL7_UNSUPPORTED');
  });

  it('routes a value that is not an hl7v2-message to invalid with HL7_INVALID', async () => {
    const r = await runNode(toFhir, {}, { message: { segments: [] } });
    expect(r.outputs.invalid).toMatchObject({ error: { code: 'HL7_INVALID' } });
    const e = await failure(runNode(toFhir, { on_invalid: 'fail' }, { message: 'PID|1' }));
    expect(e.code).toBe('HL7_INVALID');
  });

  it('has a catalog entry: every config field described, its example valid, its ports typed', () => {
    const schema = z.toJSONSchema(toFhir.config, { io: 'input' }) as { properties: Record<string, { description?: string }> };
    expect(Object.keys(schema.properties)).toEqual(['bundle_type', 'include_message_header', 'include_provenance', 'timezone', 'on_invalid']);
    for (const [name, p] of Object.entries(schema.properties)) expect(p.description, name).toBeTruthy();
    expect(toFhir.config.parse(hl7v2ToFhir.example)).toMatchObject({ timezone: '-05:00' });
    const ports = toFhir.ports(toFhir.config.parse({}));
    expect([ports.inputs, ports.outputs].map((list) => list.map((p) => `${p.name}:${p.type}`))).toEqual([
      ['message:hl7v2-message'],
      ['bundle:fhir-bundle', 'invalid:json'],
    ]);
  });

  it('refuses a timezone that is not a UTC offset', () => {
    expect(() => toFhir.config.parse({ timezone: 'EST' })).toThrow(/UTC offset/);
  });
});
