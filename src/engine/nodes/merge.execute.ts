import { implementNode } from '../node-type';
import { merge, portNames } from './merge';

export const mergeNode = implementNode(merge, {
  async execute(ctx, inputs, config) {
    const arrived = portNames(config.inputs).filter((name) => name in inputs);
    ctx.log('debug', `merging ${arrived.length} input(s): ${arrived.join(', ') || 'none'}`);
    const merged =
      config.mode === 'array' ? arrived.map((name) => inputs[name] ?? null) : Object.fromEntries(arrived.map((name) => [name, inputs[name] ?? null]));
    return { outputs: { merged } };
  },
});
