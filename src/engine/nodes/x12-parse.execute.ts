import { allSegments, parseX12 } from '@/clinical/x12';
import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { x12Parse } from './x12-parse';

export const x12ParseNode = implementNode(x12Parse, {
  async execute(ctx, inputs, config) {
    const text = inputs.text;
    if (typeof text !== 'string') {
      throw new NodeError('X12_INVALID', `"text" must be X12 text, got ${text === null ? 'null' : Array.isArray(text) ? 'an array' : typeof text}.`);
    }
    const result = parseX12(text, { strict: config.strict });
    if (!result.ok) {
      const list = result.errors
        .slice(0, 10)
        .map((e) => e.message)
        .join('; ');
      ctx.log('info', `invalid: ${result.errors.length} error(s)`);
      if (config.on_invalid === 'fail') {
        const control = result.errors.every((e) => e.code !== 'X12_INVALID');
        throw new NodeError(control ? 'X12_CONTROL_MISMATCH' : 'X12_INVALID', control ? `Control counts or numbers do not match: ${list}` : list);
      }
      return { outputs: { invalid: { text, errors: result.errors } } };
    }
    const ic = result.interchange;
    const sets = ic.groups.flatMap((g) => g.transactions.map((t) => t.kind || t.set));
    ctx.log('info', `parsed ${allSegments(ic).length} segment(s): ${ic.groups.length} group(s), transaction set(s) ${sets.join(', ')}`);
    for (const w of result.warnings) ctx.log('warn', w.message);
    return { outputs: { interchange: ic } };
  },
});
