import { compileJsonata, evaluateJsonata, jsonataTruthy } from '../lib/jsonata';
import { implementNode } from '../node-type';
import { switchDescriptor } from './switch';

export const switchNode = implementNode(switchDescriptor, {
  async execute(ctx, inputs, config) {
    const matched: string[] = [];
    for (const c of config.cases) {
      const result = await evaluateJsonata(compileJsonata(c.expression), inputs.value, 'SWITCH_FAILED');
      if (!jsonataTruthy(result)) continue;
      matched.push(c.port);
      if (config.mode === 'first') break;
    }
    const fired = matched.length > 0 ? matched : ['default'];
    ctx.log('debug', `routed to ${fired.join(', ')}`);
    return { outputs: Object.fromEntries(fired.map((port) => [port, inputs.value])) };
  },
});
