import { implementNode } from '../node-type';
import { errorTrigger } from './error-trigger';

export const errorTriggerNode = implementNode(errorTrigger, {
  async execute(ctx) {
    return { outputs: { event: ctx.executionInputs } };
  },
});
