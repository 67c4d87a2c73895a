import { groupByType, isBundle, splitBundle } from '@/clinical/fhir/bundle';
import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { fhirBundleSplit } from './fhir-bundle-split';

export const fhirBundleSplitNode = implementNode(fhirBundleSplit, {
  async execute(ctx, inputs, config) {
    const value = inputs.bundle;
    if (!isBundle(value)) {
      const type = value && typeof value === 'object' ? (value as { resourceType?: unknown }).resourceType : undefined;
      throw new NodeError(
        'FHIR_NOT_BUNDLE',
        [
          `"bundle" must be a FHIR Bundle, got`,
          `${typeof type === 'string' ? `a ${type}` : value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}.`,
        ].join(' '),
      );
    }
    const resources = splitBundle(value, { types: config.types, relativeReferences: config.relative_references });
    const byType = groupByType(resources);
    const total = value.entry?.length ?? 0;
    const counts = Object.entries(byType)
      .map(([t, rs]) => `${rs.length} ${t}`)
      .join(', ');
    ctx.log('info', `${resources.length} of ${total} resource(s)${counts ? `: ${counts}` : ''}`);
    return { outputs: { resources, by_type: byType } };
  },
});
