import { Hl7v2Error, type Hl7v2Message, serialize } from '@/clinical/hl7v2';
import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { hl7v2Serialize } from './hl7v2-serialize';

export const hl7v2SerializeNode = implementNode(hl7v2Serialize, {
  async execute(ctx, inputs, config) {
    try {
      // serialize checks the value's shape itself and throws an Hl7v2Error naming what is not well formed
      const text = serialize(inputs.message as Hl7v2Message, { terminator: config.segment_terminator });
      ctx.log('info', `${text.length} character(s)`);
      return { outputs: { text } };
    } catch (e) {
      if (e instanceof Hl7v2Error) throw new NodeError('HL7_INVALID', e.message);
      throw e;
    }
  },
});
