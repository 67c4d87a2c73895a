import { type AckCode, buildAck, Hl7v2Error, readMessage, serialize } from '@/clinical/hl7v2';
import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { hl7v2Ack } from './hl7v2-ack';

export const hl7v2AckNode = implementNode(hl7v2Ack, {
  async execute(ctx, inputs, config) {
    let received;
    try {
      received = readMessage(inputs.message);
    } catch (e) {
      if (e instanceof Hl7v2Error) throw new NodeError('HL7_INVALID', e.message);
      throw e;
    }
    const code = (config.mode === 'enhanced' ? `C${config.code[1]}` : config.code) as AckCode;
    const failed = code[1] !== 'A';
    const ack = buildAck(received, {
      mode: config.mode,
      code,
      ...(config.text ? { text: config.text } : {}),
      ...(failed || config.error_code
        ? {
            error: {
              ...(config.error_code ? { code: config.error_code } : {}),
              ...(config.text ? { message: config.text } : {}),
              ...(config.error_location ? { location: config.error_location } : {}),
              severity: failed ? 'E' : 'W',
            },
          }
        : {}),
    });
    ctx.log('info', `${code} for ${received.message_type}^${received.trigger_event} ${received.control_id} (ACK control id ${ack.control_id})`);
    return { outputs: { ack, text: serialize(ack) } };
  },
});
