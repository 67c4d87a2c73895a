import { batchMessages, isBatch, parseHl7v2 } from '@/clinical/hl7v2';
import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { hl7v2Parse } from './hl7v2-parse';

export const hl7v2ParseNode = implementNode(hl7v2Parse, {
  async execute(ctx, inputs, config) {
    const text = inputs.text;
    if (typeof text !== 'string') {
      throw new NodeError('HL7_INVALID', `"text" must be HL7 v2 text, got ${text === null ? 'null' : Array.isArray(text) ? 'an array' : typeof text}.`);
    }
    const result = parseHl7v2(text);
    if (!result.ok) {
      ctx.log('info', `invalid: ${result.errors.length} error(s)`);
      if (config.on_invalid === 'fail')
        throw new NodeError(
          'HL7_INVALID',
          result.errors
            .slice(0, 10)
            .map((e) => e.message)
            .join(' '),
        );
      return { outputs: { invalid: { text, errors: result.errors } } };
    }
    for (const w of result.warnings) ctx.log('warn', w.message);
    const value = result.value;
    if (isBatch(value)) {
      const messages = batchMessages(value);
      ctx.log('info', `batch of ${messages.length} message(s) in ${value.batches.length} batch(es)`);
      return { outputs: { messages } };
    }
    const type = [value.message_type, value.trigger_event].filter(Boolean).join('^');
    ctx.log(
      'info',
      [
        `parsed ${type || 'a message'}${value.structure ? ` (${value.structure})` : ''}`,
        `v${value.version}, ${value.segments.length} segment(s), control id ${value.control_id}`,
      ].join(' '),
    );
    return { outputs: { message: value } };
  },
});
