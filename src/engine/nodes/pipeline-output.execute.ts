import { implementNode } from '../node-type';
import { pipelineOutput } from './pipeline-output';

export const pipelineOutputNode = implementNode(pipelineOutput, {
  async execute(ctx, inputs, config) {
    return { outputs: {}, emit: { key: config.key ?? ctx.nodeId, value: inputs.value } };
  },
});
