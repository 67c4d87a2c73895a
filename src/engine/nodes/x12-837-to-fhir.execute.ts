import { claimsFrom837 } from '@/clinical/x12';
import { x12ToFhir } from '../lib/x12-to-fhir';
import { implementNode } from '../node-type';
import { x12837ToFhir } from './x12-837-to-fhir';

export const x12837ToFhirNode = implementNode(x12837ToFhir, {
  async execute(ctx, inputs) {
    return x12ToFhir(ctx, inputs.interchange, claimsFrom837, {
      main: 'Claim',
      wrongSet: 'X12_NOT_837',
      hint: 'connect an 837 (health care claim) interchange.',
    });
  },
});
