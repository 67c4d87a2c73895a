import { z } from 'zod';
import { ERROR_CONDITIONS } from '@/clinical/hl7v2/ack';
import { parsePath } from '@/clinical/hl7v2/path';
import { describeNode } from '../node-descriptor';

const Config = z
  .object({
    mode: z
      .enum(['original', 'enhanced'])
      .default('original')
      .describe(
        [
          'original: an application acknowledgment (AA/AE/AR); enhanced: an accept (commit)',
          'acknowledgment (CA/CE/CR), itself marked not to be acknowledged (MSH-15/16 NE)',
        ].join(' '),
      ),
    code: z
      .enum(['AA', 'AE', 'AR', 'CA', 'CE', 'CR'])
      .default('AA')
      .describe('MSA-1: accept (AA), error (AE) or reject (AR); in enhanced mode these are sent as CA, CE, CR'),
    text: z.string().max(2_000).default('').describe('MSA-3 text message, and the ERR user message of a NAK (escaped for you)'),
    error_code: z
      .string()
      .regex(/^\d{1,4}$/, 'a code of HL7 table 0357, e.g. 207')
      .optional()
      .describe(
        `ERR-3, HL7 table 0357 (${Object.entries(ERROR_CONDITIONS)
          .filter(([c]) => c !== '0')
          .map(([c, t]) => `${c} ${t.toLowerCase()}`)
          .join(', ')}); a NAK (AE/AR) without it says 207`,
      ),
    error_location: z
      .string()
      .optional()
      .superRefine((path, ctx) => {
        if (path === undefined || path === '') return;
        try {
          parsePath(path);
        } catch (e) {
          ctx.addIssue({ code: 'custom', message: (e as Error).message });
        }
      })
      .describe('Where the error is, as an HL7 path (PID-5, OBX[2]-5.1): ERR-2 from v2.5, ERR-1 before'),
  })
  .superRefine((c, ctx) => {
    if (c.mode === 'original' && c.code.startsWith('C')) {
      ctx.addIssue({ code: 'custom', path: ['code'], message: `${c.code} is an enhanced-mode code: set mode to "enhanced", or use A${c.code[1]}` });
    }
  });

export const hl7v2Ack = describeNode({
  id: 'hl7v2-ack',
  name: 'HL7 v2 ACK',
  idBase: 'ack',
  category: 'healthcare',
  description: 'Builds the acknowledgment (ACK, or a NAK with an ERR segment) of a received HL7 v2 message.',
  version: '1.0.0',
  keywords: ['hl7', 'hl7v2', 'ack', 'nak', 'acknowledgment', 'msa', 'err', 'aa', 'ae', 'ar', 'commit', 'mllp', 'reply'],
  side_effect: 'none',
  documentation: [
    'Makes the reply a sender waits for: MSH with the received sending and receiving application and',
    'facility swapped (MSH-3/4 ↔ MSH-5/6), MSH-9 `ACK^<trigger>^ACK` (`ACK^<trigger>` before v2.3.1, which has no',
    'structure component), a new MSH-10, the received processing id, version and delimiters; MSA-1 the',
    'code, MSA-2 the received MSH-10, MSA-3 `text`. An error or reject code (AE/AR, CE/CR) adds an ERR segment',
    "with `error_code` (HL7 table 0357, default 207) and `text`, laid out as the message's version expects",
    '(ERR-2/3/4/8 from v2.5, ERR-1 before). `ack` is the reply as a value; `text` is the same, CR-terminated,',
    'ready for an MLLP connection.',
    '',
    '**Example**: for `MSH|^~\\&|ADTApp|GHH|EHRApp|GHR|20240105083000||ADT^A01^ADT_A01|MSG00001|P|2.5.1`',
    'with `code: "AE", text: "PID-5 missing", error_code: "101", error_location: "PID-5"`, `text` is',
    '`MSH|^~\\&|EHRApp|GHR|ADTApp|GHH|20240105083001+0000||ACK^A01^ACK|LQZ3K2M8A1B2C3D|P|2.5.1` ⏎',
    '`MSA|AE|MSG00001|PID-5 missing` ⏎ `ERR||PID^1^5^1|101^Required field missing^HL70357|E||||PID-5 missing` ⏎.',
  ].join('\n'),
  config: Config,
  example: { mode: 'original', code: 'AE', text: 'PID-5 (patient name) is missing', error_code: '101', error_location: 'PID-5' },
  ui: { order: ['mode', 'code', 'text', 'error_code', 'error_location'], fields: { text: { widget: 'textarea' } } },
  plan: {
    madeFor: 'hl7',
    edit: { cue: /\backs?\b|\backnowledg\w*/, names: /\back\b|\backnowledg\w*/ },
    role: 'step',
    stage: 'encode',
    input: 'message',
    output: 'text',
    search: false,
    takes: (f) => f.kind === 'hl7',
    gives: () => ({ type: 'text', kind: 'hl7' }),
    cue: /\b(build|create|generate|return|send back|reply with|make)\w*[^.]{0,20}\b(ack|acks|acknowledg\w*)\b/,
    // the MLLP listener acknowledges by itself; an ACK is HL7 v2's
    dropWhen: ({ data, trigger }) => trigger === 'mllp' || data !== 'hl7',
    configure: (a) => {
      const code = a.text.match(/\b(AA|AE|AR|CA|CE|CR)\b/);
      if (code) a.config.code = code[1];
    },
    outputKey: 'ack',
  },
  ports: () => ({
    inputs: [{ name: 'message', type: 'hl7v2-message', description: 'The received message' }],
    outputs: [
      { name: 'ack', type: 'hl7v2-message', description: 'The acknowledgment as a value' },
      { name: 'text', type: 'text', description: 'The acknowledgment as HL7 text (CR-terminated)' },
    ],
  }),
  errors: { HL7_INVALID: 'the input is not a well-formed hl7v2-message (the message names the bad segment and field)' },
});
