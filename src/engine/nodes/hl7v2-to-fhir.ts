import { z } from 'zod';
import { describeNode } from '../node-descriptor';

const Config = z.object({
  bundle_type: z
    .enum(['transaction', 'batch', 'collection'])
    .default('transaction')
    .describe(
      [
        'transaction: all-or-nothing on a FHIR server (each entry a PUT to its id); batch: the',
        'same entries, each applied on its own; collection: the resources only, no requests',
      ].join(' '),
    ),
  include_message_header: z.boolean().default(true).describe('Add a MessageHeader made from MSH (event, source and destination applications)'),
  include_provenance: z
    .boolean()
    .default(true)
    .describe(
      [
        'Add Provenance: the conversion (recorded at MSH-7, by the sending application as a',
        'Device) and, when the message has an EVN, the event (EVN-2, EVN-4 reason, EVN-5 operator)',
      ].join(' '),
    ),
  timezone: z
    .string()
    .regex(/^[+-](0\d|1[0-4]):[0-5]\d$/, 'a UTC offset such as +00:00 or -05:00')
    .default('+00:00')
    .describe('The UTC offset of times the sender wrote without one (HL7 allows it, FHIR needs a zone with every time), e.g. -05:00'),
  on_invalid: z
    .enum(['route', 'fail'])
    .default('route')
    .describe('route: send a message that cannot be converted (a type this node does not map, a malformed value) out of "invalid"; fail: stop the execution'),
});

export const hl7v2ToFhir = describeNode({
  id: 'hl7v2-to-fhir',
  name: 'HL7 v2 to FHIR',
  idBase: 'to_fhir',
  category: 'healthcare',
  description: 'Converts an HL7 v2 message (ADT, ORU, ORM, OML, VXU, SIU, MDM, BAR, DFT, REF…) into a FHIR R4 Bundle.',
  version: '1.0.0',
  keywords: [
    'hl7',
    'hl7v2',
    'fhir',
    'r4',
    'convert',
    'bundle',
    'adt',
    'oru',
    'orm',
    'oml',
    'vxu',
    'siu',
    'mdm',
    'patient',
    'encounter',
    'observation',
    'v2-to-fhir',
  ],
  side_effect: 'none',
  documentation: [
    'Maps an `hl7v2-message` onto FHIR R4 resources the way the HL7 v2-to-FHIR mappings of the Microsoft',
    'FHIR-Converter templates do: PID (+ PD1) → Patient, PV1/PV2 → Encounter (PV1-2 `I` → class IMP, `E` → EMER,',
    '`O` → AMB…; its locations PV1-3/6/11/42/43 → Locations, bed within room within unit within facility), NK1 →',
    'Patient.contact and RelatedPerson (an employer: contact only), GT1 → the guarantor, IN1/IN2 → Coverage',
    'with the payer Organization, AL1/IAM → AllergyIntolerance, DG1/PRB/PDA → Condition (DG1 also in',
    'Encounter.diagnosis), PR1 → Procedure, ORC/OBR → ServiceRequest (and DiagnosticReport for results), OBX →',
    'Observation (value by OBX-2; an ED/RP document → DiagnosticReport with its presented form), SPM → Specimen,',
    'RXA (+ RXR) → Immunization, RXO/RXE → MedicationRequest, RXD → MedicationDispense, NTE → a note of what it',
    'follows, TXA (+ its text OBX) → DocumentReference, SCH/AIS/AIL/AIP → Appointment, RF1 →',
    'referral ServiceRequest, PDA/ACC → Observations, MSH → MessageHeader, MSH/EVN → Provenance. People named in XCN',
    'fields become Practitioners; HL7 table codes carry their display (PV1-4 `E` → Emergency). Message types:',
    'ADT (A01–A62), BAR, DFT, MDM (T01–T11), OMG, OML, ORM, ORU, OUL, PPR, RDE, RDS, REF, SIU (S12–S26), VXU.',
    '',
    'Ids are derived, never random: a patient (by PID-3), a visit (by PV1-19), a practitioner, payer, location and',
    'the sending application get the same id in every message of the sending facility (MSH-4), so a later',
    'message updates them; the other resources get ids of the message (MSH-3/4, MSH-10, MSH-7), so a re-sent',
    'message gives the same bundle. Every reference points to a resource of the bundle (`fullUrl`',
    '`urn:uuid:<id>`, request `PUT <type>/<id>`), and every bundle is valid FHIR R4. A merge or change of identifier',
    '(A34, A40, A46, A47; accounts A35, A41, A49) gives a Linkage of the records by identifier, the one of PID',
    '(`source`) and the one of MRG it replaces (`historical`), and no Patient or Encounter. Segments the node does not',
    'map (ROL, PRT, ARV, Z-segments…) are named in the log.',
    '',
    'A message of a type the node does not map (ACK, MFN, QRY…) or a value that is not a well-formed message goes',
    'to `invalid` as `{"message": …, "error": {"code": "HL7_UNSUPPORTED", "message": "ACK is not a message type',
    'this converter maps (…)"}}` (`HL7_INVALID` for a malformed value), or fails with `on_invalid: "fail"`.',
    '',
    '**Example**: `MSH|^~\\&|ADTApp|GHH|EHRApp|GHR|20240105083000-0500||ADT^A01^ADT_A01|MSG00001|P|2.5.1` ⏎',
    '`PID|1||PATID1234^^^GHH^MR||EVERYMAN^ADAM^A||19610615|M` ⏎ `PV1|1|I|2000^2012^01` gives a transaction',
    'Bundle with a MessageHeader (event A01), a Patient (identifier PATID1234, name EVERYMAN ADAM, birthDate',
    '1961-06-15, gender male), an Encounter (class IMP, subject that Patient, at bed 01 of room 2012 of unit 2000:',
    'three Locations), the sending application as a',
    'Device and a Provenance recorded at 2024-01-05T08:30:00-05:00.',
  ].join('\n'),
  config: Config,
  example: { bundle_type: 'transaction', include_message_header: true, include_provenance: true, timezone: '-05:00', on_invalid: 'route' },
  ui: { order: ['bundle_type', 'include_message_header', 'include_provenance', 'timezone', 'on_invalid'] },
  plan: {
    madeFor: 'hl7',
    role: 'step',
    stage: 'convert',
    input: 'message',
    output: 'bundle',
    aside: 'invalid',
    jobs: ['to-fhir'],
    search: false,
    converter: 'converts the value',
    takes: (f) => f.kind === 'hl7',
    gives: (_f, c) => ({ type: 'fhir-bundle', kind: 'fhir', bundle: String(c.bundle_type ?? 'transaction') }),
    answers: { 'to-fhir': { when: (a) => a.data === 'hl7', why: 'HL7 v2 to FHIR' } },
  },
  ports: () => ({
    inputs: [{ name: 'message', type: 'hl7v2-message', description: 'The message to convert (from hl7v2-parse)' }],
    outputs: [
      { name: 'bundle', type: 'fhir-bundle', description: 'The FHIR R4 Bundle' },
      { name: 'invalid', type: 'json', description: '{message, error: {code, message}} when the message cannot be converted' },
    ],
  }),
  errors: {
    HL7_INVALID: 'with `on_invalid` fail: the input is not a well-formed hl7v2-message (the message names the bad segment and field)',
    HL7_UNSUPPORTED: 'with `on_invalid` fail: the message type is not one the node maps',
  },
});
