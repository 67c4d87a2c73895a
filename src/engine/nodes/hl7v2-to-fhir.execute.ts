import { Hl7v2Error, readMessage } from '@/clinical/hl7v2';
import { convertMessage, UnsupportedMessageError } from '@/clinical/hl7v2-fhir';
import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { hl7v2ToFhir } from './hl7v2-to-fhir';

export const hl7v2ToFhirNode = implementNode(hl7v2ToFhir, {
  async execute(ctx, inputs, config) {
    const refuse = (code: 'HL7_INVALID' | 'HL7_UNSUPPORTED', message: string) => {
      ctx.log('info', `invalid: ${message}`);
      if (config.on_invalid === 'fail') throw new NodeError(code, message);
      return { outputs: { invalid: { message: inputs.message, error: { code, message } } } };
    };
    let message;
    try {
      message = readMessage(inputs.message);
    } catch (e) {
      if (e instanceof Hl7v2Error) return refuse('HL7_INVALID', e.message);
      throw e;
    }
    let result;
    try {
      result = convertMessage(message, {
        bundleType: config.bundle_type,
        messageHeader: config.include_message_header,
        provenance: config.include_provenance,
        timezone: config.timezone,
      });
    } catch (e) {
      if (e instanceof UnsupportedMessageError) return refuse('HL7_UNSUPPORTED', e.message);
      throw e;
    }
    const counts = new Map<string, number>();
    for (const entry of result.bundle.entry ?? []) counts.set(entry.resource!.resourceType, (counts.get(entry.resource!.resourceType) ?? 0) + 1);
    const type = [message.message_type, message.trigger_event].filter(Boolean).join('^');
    ctx.log('info', `${type} ${message.control_id} → ${result.bundle.entry?.length ?? 0} resource(s): ${[...counts].map(([t, n]) => `${t} ${n}`).join(', ')}`);
    const skipped = Object.entries(result.skipped);
    if (skipped.length) ctx.log('info', `not mapped: ${skipped.map(([id, n]) => `${id} ×${n}`).join(', ')}`);
    return { outputs: { bundle: result.bundle } };
  },
});
