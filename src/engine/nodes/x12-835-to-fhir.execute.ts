import { eobsFrom835 } from '@/clinical/x12';
import { x12ToFhir } from '../lib/x12-to-fhir';
import { implementNode } from '../node-type';
import { x12835ToFhir } from './x12-835-to-fhir';

export const x12835ToFhirNode = implementNode(x12835ToFhir, {
  async execute(ctx, inputs) {
    return x12ToFhir(ctx, inputs.interchange, eobsFrom835, {
      main: 'ExplanationOfBenefit',
      wrongSet: 'X12_NOT_835',
      hint: 'connect an 835 (claim payment/advice) interchange.',
    });
  },
});
