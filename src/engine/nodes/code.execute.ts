import { runSandboxed } from '../lib/code-sandbox';
import { implementNode } from '../node-type';
import { code } from './code';

export const codeNode = implementNode(code, {
  async execute(ctx, inputs, config) {
    const started = Date.now();
    const output = await runSandboxed(ctx, ctx.services.tenant, config.source, inputs.input, config);
    ctx.log('debug', `code ran in ${Date.now() - started} ms`);
    return { outputs: { output } };
  },
});
