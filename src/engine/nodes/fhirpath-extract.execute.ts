import { isBundle, isResource } from '@/clinical/fhir/bundle';
import { extractValues } from '@/clinical/fhir/fhirpath';
import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { fhirpathExtract } from './fhirpath-extract';

export const fhirpathExtractNode = implementNode(fhirpathExtract, {
  async execute(ctx, inputs, config) {
    const value = inputs.resource;
    if (!isResource(value)) {
      throw new NodeError(
        'FHIR_INVALID',
        [
          `"resource" must be a FHIR resource (an object with a resourceType), got`,
          `${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}.`,
        ].join(' '),
      );
    }
    const run = (input: unknown) => {
      try {
        return extractValues(input, config.expressions, config.mode);
      } catch (e) {
        throw new NodeError('FHIRPATH_FAILED', (e as Error).message);
      }
    };
    if (config.each_entry && isBundle(value)) {
      const values = (value.entry ?? []).filter((e) => e.resource).map((e) => run(e.resource));
      ctx.log('info', `${Object.keys(config.expressions).length} expression(s) on ${values.length} entr${values.length === 1 ? 'y' : 'ies'}`);
      return { outputs: { values } };
    }
    const values = run(value);
    const empty = Object.entries(values)
      .filter(([, v]) => v === null || (Array.isArray(v) && v.length === 0))
      .map(([k]) => k);
    ctx.log('info', `${Object.keys(values).length} value(s) from a ${value.resourceType}${empty.length ? `; nothing found for ${empty.join(', ')}` : ''}`);
    return { outputs: { values } };
  },
});
