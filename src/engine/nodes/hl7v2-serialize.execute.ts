import { Hl7v2Error, serialize } from '@/clinical/hl7v2';
import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { hl7v2Serialize } from './hl7v2-serialize';

export const hl7v2SerializeNode = implementNode(hl7v2Serialize, {
  async execute(ctx, inputs, config) {
    try {
      const text = serialize(inputs.message as never, { terminator: config.segment_terminator });
      ctx.log('info', `${text.length} character(s)`);
      return { outputs: { text } };
    } catch (e) {
      if (e instanceof Hl7v2Error) throw new NodeError('HL7_INVALID', e.message);
      throw e;
    }
  },
});
