import { deidentifyHl7v2 } from '@/clinical/deid/hl7v2';
import { Hl7v2Error, readMessage } from '@/clinical/hl7v2';
import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { hl7v2Deidentify } from './hl7v2-deidentify';

export const hl7v2DeidentifyNode = implementNode(hl7v2Deidentify, {
  async execute(ctx, inputs, config) {
    let message;
    try {
      message = readMessage(inputs.message);
    } catch (e) {
      if (!(e instanceof Hl7v2Error)) throw e;
      if (config.on_invalid === 'fail') throw new NodeError('HL7_INVALID', e.message);
      ctx.log('info', e.message);
      return { outputs: { invalid: { value: inputs.message, error: e.message } } };
    }
    const key = await ctx.services.orgKey('deidentify');
    const out = deidentifyHl7v2(message, {
      key,
      maxShiftDays: config.date_shift_days,
      birthDate: { keepYear: config.keep_birth_year, over89: config.over_89 },
    });
    ctx.log('info', `de-identified ${message.message_type}^${message.trigger_event} ${message.control_id} (${message.segments.length} segments)`);
    return { outputs: { message: out } };
  },
});
