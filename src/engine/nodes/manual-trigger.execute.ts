import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { manualTrigger } from './manual-trigger';

export const manualTriggerNode = implementNode(manualTrigger, {
  async execute(ctx, _inputs, config) {
    const outputs: Record<string, unknown> = { event: ctx.executionInputs };
    for (const name of Object.keys(config.fields)) {
      if (ctx.executionInputs[name] === undefined) {
        throw new NodeError('INPUT_MISSING', `The execution inputs have no "${name}" (declared in the trigger's fields).`);
      }
      outputs[name] = ctx.executionInputs[name];
    }
    return { outputs };
  },
});
