import { Hl7v2Error, parseMessage } from '@/clinical/hl7v2';
import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { mllpListenerTrigger } from './mllp-listener-trigger';

export const mllpListenerTriggerNode = implementNode(mllpListenerTrigger, {
  async execute(ctx, _inputs, config) {
    const sample = mllpListenerTrigger.trigger!.sampleInputs(config);
    const event = { ...sample, ...ctx.executionInputs };
    if (typeof event.message !== 'string') throw new NodeError('HL7_INVALID', 'The input `message` must be HL7 v2 text.');
    try {
      const parsed = parseMessage(event.message);
      return { outputs: { message: event.message, parsed, event } };
    } catch (e) {
      if (e instanceof Hl7v2Error) throw new NodeError('HL7_INVALID', e.message);
      throw e;
    }
  },
  async activate(host, target, config) {
    if (config.port === undefined)
      throw new NodeError('MLLP_PORT_REQUIRED', 'The MLLP listener trigger needs a `port` to listen on before the pipeline can be deployed.');
    await host.listen(target, {
      port: config.port,
      encoding: config.encoding,
      ack_mode: config.ack_mode,
      order: config.order,
      allowed_senders: config.allowed_senders,
    });
  },
  deactivate: (host, target) => host.unlisten(target),
});
