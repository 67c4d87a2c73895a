import { claimsFrom837, readInterchange, X12SetError } from '@/clinical/x12';
import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { x12837ToFhir } from './x12-837-to-fhir';

export const x12837ToFhirNode = implementNode(x12837ToFhir, {
  async execute(ctx, inputs) {
    let ic;
    try {
      ic = readInterchange(inputs.interchange);
    } catch (e) {
      throw new NodeError('X12_VALUE_INVALID', (e as Error).message);
    }
    try {
      const { bundle, warnings } = claimsFrom837(ic);
      for (const w of warnings) ctx.log('warn', w);
      const claims = bundle.entry?.filter((e) => e.resource?.resourceType === 'Claim').length ?? 0;
      ctx.log('info', `${claims} Claim(s), ${(bundle.entry?.length ?? 0) - claims} related resource(s)`);
      return { outputs: { bundle } };
    } catch (e) {
      if (e instanceof X12SetError) throw new NodeError('X12_NOT_837', `${e.message}: connect an 837 (health care claim) interchange.`);
      throw e;
    }
  },
});
