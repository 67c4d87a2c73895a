import { eobsFrom835, readInterchange, X12SetError } from '@/clinical/x12';
import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { x12835ToFhir } from './x12-835-to-fhir';

export const x12835ToFhirNode = implementNode(x12835ToFhir, {
  async execute(ctx, inputs) {
    let ic;
    try {
      ic = readInterchange(inputs.interchange);
    } catch (e) {
      throw new NodeError('X12_VALUE_INVALID', (e as Error).message);
    }
    try {
      const { bundle, warnings } = eobsFrom835(ic);
      for (const w of warnings) ctx.log('warn', w);
      const eobs = bundle.entry?.filter((e) => e.resource?.resourceType === 'ExplanationOfBenefit').length ?? 0;
      ctx.log('info', `${eobs} ExplanationOfBenefit(s), ${(bundle.entry?.length ?? 0) - eobs} related resource(s)`);
      return { outputs: { bundle } };
    } catch (e) {
      if (e instanceof X12SetError) throw new NodeError('X12_NOT_835', `${e.message}: connect an 835 (claim payment/advice) interchange.`);
      throw e;
    }
  },
});
