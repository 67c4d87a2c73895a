import { z } from 'zod';
import { describeNode } from '../node-descriptor';
import { pass } from '../node-plan';
import { deidentifyFromRequest } from './fhir-deidentify';

const Config = z.object({
  date_shift_days: z
    .number()
    .int()
    .min(1)
    .max(3650)
    .default(365)
    .describe(
      [
        'Dates move by up to this many days, forwards or backwards (never 0): the same number for',
        "all of one patient's messages, derived from the organization's key and the patient's MRN",
      ].join(' '),
    ),
  keep_birth_year: z.boolean().default(true).describe('PID-7 (and NK1-16, GT1-8, IN1-18) become the year alone; off: they are shifted like other dates'),
  over_89: z
    .enum(['boundary', 'remove'])
    .default('boundary')
    .describe('Birth dates of people older than 89: boundary writes the year 90 years before the date of death (PID-29) or today; remove empties them'),
  on_invalid: z
    .enum(['route', 'fail'])
    .default('route')
    .describe('route: send a value that is not an hl7v2-message out of "invalid"; fail: stop the execution'),
});

export const hl7v2Deidentify = describeNode({
  id: 'hl7v2-deidentify',
  name: 'HL7 v2 de-identify',
  idBase: 'deidentify',
  category: 'healthcare',
  description: [
    'De-identifies an HL7 v2 message by HIPAA Safe Harbor, field by data type in every segment (PID, NK1, GT1, IN1-IN3, PV1, orders, results…):',
    "names and phones emptied, identifiers hashed with the organization's key, addresses cut, dates shifted; free-text OBX and NTE scrubbed.",
  ].join(' '),
  version: '1.0.0',
  keywords: ['hl7', 'hl7v2', 'deidentify', 'de-identification', 'anonymize', 'pseudonymize', 'hipaa', 'safe harbor', 'phi', 'pid', 'obx', 'nte', 'privacy'],
  side_effect: 'none',
  documentation: [
    "Rewrites the message's fields (escaping what it writes), so it still serializes and parses. Every field is",
    'handled by its **data type**, in every segment the field table knows, every repetition and component: XPN names',
    'emptied, XCN people pseudonymized, XAD addresses cut, XTN phones emptied, CX/EI/EIP/DLN identifiers and XON',
    'organizations pseudonymized, TS/DTM/DT dates shifted (birth dates by the birth-date policy), ED data removed, PL',
    'locations cut; in the segments that describe a person (PID, PD1, NK1, GT1, IN1, IN2, IN3, MRG) every ST field',
    '(SSNs, policy, group, Medicare and Medicaid numbers…) is pseudonymized; elsewhere an ST number or ID is',
    'pseudonymized and an ST place or location emptied. The explicit table below refines it:',
    '- **identifiers** (PID-2/3/4/18/19/20/21, NK1-12/33/37, PV1-5/19/50, GT1-2/12/19, IN1-3/8/10/36/49, IN2,',
    '  ORC/OBR placer and filler numbers, MRG): the ID (component 1) becomes an HMAC-SHA256 pseudonym under your',
    "  organization's key, shaped as a UUID; assigning authority and type code stay. `fhir-deidentify` gives the same",
    '  value the same pseudonym, so a patient links across HL7 and FHIR;',
    '- **providers** (PV1-7/8/9/17/52, ORC, OBR, OBX-16/25, ROL, PRT, PR1, TXA…, XCN): the id is pseudonymized, the',
    '  name removed;',
    '- **names, phones, emails** (PID-5/6/9/13/14, NK1-2/5/6/30/31, GT1-3/4/6/7, IN1-6/7/16…), birth place (PID-23),',
    '  county (PID-12), employer names: emptied;',
    '- **addresses** (PID-11, NK1-4/32, GT1-5/17, IN1-19/44, ROL, PRT, ORC, SCH, OBX-24): only state, ZIP cut to 3',
    '  digits (`000` for the 17 small areas), country and address type remain;',
    '- **locations** (PV1-3/6/11/42/43): only the point of care (component 1) remains;',
    '- **organizations** (XON: IN1-4 insurer, IN1-11 and GT1-51 employers, ORC-21, OBX-23, PD1-3…): the name goes, the',
    "  ID numbers are pseudonymized, the type codes stay; the accident's location (ACC-3) and address (ACC-11) go,",
    '  its description (ACC-8) is scrubbed; MSH (but MSH-7), SFT and MSA describe the systems and are left as they are;',
    '- **dates** (MSH-7, EVN, PID-29/33, PV1-44/45, NK1-8/9, IN1-12/13, OBR, OBX-14/19, RXA…, and any other',
    "  field holding a date-time) move by the patient's shift, keeping their precision; birth dates (PID-7, NK1-16,",
    '  GT1-8, IN1-18) keep the year, people older than 89 get the year 90 years back;',
    '- **free text**: OBX-5 of type ST, TX or FT and NTE-3 are scrubbed of the names, identifiers, phones and',
    '  addresses the message holds and of phones, emails, SSNs, MRNs, URLs by pattern (dates in them are shifted);',
    '  OBX-5 of type ED or RP (encapsulated data, pointers) is emptied; every other field — and what an action keeps,',
    "  such as an identifier's assigning facility — has the known names and identifiers replaced wherever they appear.",
    "The shift derives from the patient's MRN: the PID-2/PID-3 identifier typed MR, else the first one.",
    '',
    '**Example**: `PID|1||PATID1234^5^M11^test^MR||EVERYMAN^ADAM^A||19880818|M|||1000 Hospital Lane^^Ann Arbor^MI^48104`',
    'becomes `PID|1||<pseudonym of PATID1234>^5^M11^test^MR||||1988|M|||^^^MI^481`, and an',
    '`NTE|1||Called ADAM EVERYMAN at 555-123-4567` becomes `NTE|1||Called [NAME] [NAME] at [PHONE]`.',
  ].join('\n'),
  config: Config,
  example: { date_shift_days: 180, keep_birth_year: true, over_89: 'boundary', on_invalid: 'route' },
  ui: { order: ['date_shift_days', 'keep_birth_year', 'over_89', 'on_invalid'] },
  plan: {
    madeFor: 'hl7',
    role: 'step',
    stage: 'raw',
    input: 'message',
    output: 'message',
    jobs: ['deidentify'],
    takes: (f) => f.kind === 'hl7',
    gives: pass,
    answers: { deidentify: { when: (a) => a.data === 'hl7' && !a.fhir, why: 'the messages stay HL7 v2' } },
    configure: deidentifyFromRequest,
  },
  ports: () => ({
    inputs: [{ name: 'message', type: 'hl7v2-message', description: 'A parsed HL7 v2 message' }],
    outputs: [
      { name: 'message', type: 'hl7v2-message', description: 'The de-identified message' },
      { name: 'invalid', type: 'json', description: '{value, error} when the input is not an hl7v2-message' },
    ],
  }),
  errors: { HL7_INVALID: 'the input is not a well-formed hl7v2-message and `on_invalid` is `fail`' },
});
