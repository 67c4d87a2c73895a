import { get, parseHl7v2, isBatch, batchMessages } from '@/clinical/hl7v2';
import type { Hl7v2Message } from '@/clinical/hl7v2';
import { type BuiltinTool, ToolError } from '../tool-types';

function describe(m: Hl7v2Message) {
  return {
    type: [m.message_type, m.trigger_event].filter(Boolean).join('^'),
    control_id: m.control_id,
    version: m.version,
    sent_at: m.sent_at,
    from: [m.sending_application, m.sending_facility].filter(Boolean).join(' @ '),
    to: [m.receiving_application, m.receiving_facility].filter(Boolean).join(' @ '),
    patient: {
      id: get(m, 'PID-3.1') ?? '',
      name: [get(m, 'PID-5.2'), get(m, 'PID-5.1')].filter(Boolean).join(' '),
      birth_date: get(m, 'PID-7.1') ?? '',
      sex: get(m, 'PID-8') ?? '',
    },
    visit: m.segments.some((s) => s.id === 'PV1') ? { class: get(m, 'PV1-2') ?? '', location: get(m, 'PV1-3.1') ?? '' } : undefined,
    segments: m.segments.map((s) => s.id),
  };
}

/** Parses HL7 v2 text and says what it holds, and what a receiver would reject. */
export const hl7v2Parse: BuiltinTool = {
  id: 'hl7v2_parse',
  name: 'HL7 v2 parse',
  description: 'Parse an HL7 v2 message (or batch): its type, control id, version, sender, patient, visit, segments, and the problems found.',
  input_schema: {
    type: 'object',
    properties: { message: { type: 'string', description: 'The HL7 v2 message text, starting with MSH' } },
    required: ['message'],
    additionalProperties: false,
  },
  config_schema: { type: 'object', properties: {} },
  async run(_t, input) {
    const text = String(input.message ?? '');
    const start = text.search(/(MSH|FHS|BHS)\|/);
    if (start < 0) throw new ToolError('HL7_INVALID', 'No MSH segment found: an HL7 v2 message starts with MSH|^~\\&|…');
    const parsed = parseHl7v2(text.slice(start));
    if (!parsed.ok) return { valid: false, problems: parsed.errors };
    const messages = isBatch(parsed.value) ? batchMessages(parsed.value) : [parsed.value];
    return { valid: true, messages: messages.map(describe), problems: parsed.warnings };
  },
};
