import { claimEdits, readInterchange, X12SetError } from '@/clinical/x12';
import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { claimValidate } from './claim-validate';

export const claimValidateNode = implementNode(claimValidate, {
  async execute(ctx, inputs, config) {
    let ic;
    try {
      ic = readInterchange(inputs.interchange);
    } catch (e) {
      throw new NodeError('X12_VALUE_INVALID', (e as Error).message);
    }
    let issues;
    try {
      issues = claimEdits(ic, config.as_of ? { today: config.as_of } : {});
    } catch (e) {
      if (e instanceof X12SetError) throw new NodeError('X12_NOT_837', `${e.message}: claim edits apply to 837 claims.`);
      throw e;
    }
    const errors = issues.filter((i) => i.severity === 'error');
    for (const w of issues.filter((i) => i.severity === 'warning')) ctx.log('warn', `${w.location}: ${w.message}`);
    if (errors.length === 0) {
      ctx.log('info', 'no claim errors');
      return { outputs: { valid: inputs.interchange } };
    }
    ctx.log('info', `invalid: ${errors.length} error(s)`);
    if (config.on_invalid === 'fail') {
      const list = errors
        .slice(0, 20)
        .map((i) => `${i.claim ? `claim ${i.claim} ` : ''}${i.location}: ${i.message}`)
        .join('; ');
      const more = errors.length > 20 ? ` (and ${errors.length - 20} more)` : '';
      throw new NodeError('CLAIM_INVALID', `Claim edits failed: ${list}${more}`);
    }
    return { outputs: { invalid: { interchange: inputs.interchange, issues } } };
  },
});
