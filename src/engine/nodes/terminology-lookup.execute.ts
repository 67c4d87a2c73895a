import { fillDisplays } from '@/clinical/fhir/terminology';
import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { terminologyLookup } from './terminology-lookup';

export const terminologyLookupNode = implementNode(terminologyLookup, {
  async execute(ctx, inputs, config) {
    const input = inputs.value;
    if (!input || typeof input !== 'object' || Array.isArray(input)) {
      throw new NodeError(
        'VALUE_INVALID',
        [
          `"value" must be a FHIR resource, a CodeableConcept, a Coding or {system, code},`,
          `got ${input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input}.`,
        ].join(' '),
      );
    }
    const { value, filled, kept, unknown } = fillDisplays(input, { overwrite: config.overwrite });
    ctx.log('info', `${filled} display(s) filled in, ${kept} already there, ${unknown.length} unknown code(s)`);
    if (unknown.length && config.on_unknown === 'fail') {
      const list = unknown
        .slice(0, 20)
        .map((u) => `${u.system || '(no system)'}|${u.code}${u.path ? ` at ${u.path}` : ''}`)
        .join(', ');
      throw new NodeError('TERMINOLOGY_UNKNOWN_CODE', `Unknown code(s): ${list}${unknown.length > 20 ? ` (and ${unknown.length - 20} more)` : ''}`);
    }
    const outputs: Record<string, unknown> = { value };
    const single = value as { resourceType?: unknown; code?: unknown; display?: unknown; coding?: { display?: unknown }[] };
    if (single.resourceType !== undefined) {
      // a resource: displays are filled in place, no single display
    } else if (typeof single.code === 'string' && typeof single.display === 'string') outputs.display = single.display;
    else if (Array.isArray(single.coding) && single.coding.length === 1 && typeof single.coding[0]?.display === 'string')
      outputs.display = single.coding[0].display;
    if (unknown.length) outputs.unknown = unknown;
    return { outputs };
  },
});
