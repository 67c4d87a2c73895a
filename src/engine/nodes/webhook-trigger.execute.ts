import { implementNode } from '../node-type';
import { webhookTrigger } from './webhook-trigger';

export const webhookTriggerNode = implementNode(webhookTrigger, {
  async execute(ctx) {
    const inputs = ctx.executionInputs;
    const body = 'body' in inputs && inputs.body !== undefined ? inputs.body : inputs;
    return { outputs: { event: inputs, body } };
  },
});
