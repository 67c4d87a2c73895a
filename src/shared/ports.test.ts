import { describe, expect, it } from 'vitest';
import { PORT_TYPES, portsFit, type PortType } from './ports';

/**
 * Every (source, target) pair of port types, written out: a row is a source type, and lists the target
 * types it may feed. DESIGN.md §3: same type, `any` at either end, or a kind of json into `json`.
 */
const FITS: Record<PortType, PortType[]> = {
  'trigger-event': ['trigger-event', 'json', 'any'],
  text: ['text', 'any'],
  json: ['json', 'any'],
  'hl7v2-message': ['hl7v2-message', 'json', 'any'],
  'fhir-resource': ['fhir-resource', 'json', 'any'],
  'fhir-bundle': ['fhir-bundle', 'json', 'any'],
  'x12-interchange': ['x12-interchange', 'json', 'any'],
  'error-event': ['error-event', 'json', 'any'],
  any: [...PORT_TYPES],
};

describe('portsFit', () => {
  const pairs = PORT_TYPES.flatMap((source) => PORT_TYPES.map((target) => [source, target, FITS[source].includes(target)] as const));

  it.each(pairs)('%s → %s fits: %s', (source, target, fits) => {
    expect(portsFit(source, target)).toBe(fits);
  });

  it('covers all 81 pairs', () => {
    expect(pairs).toHaveLength(PORT_TYPES.length ** 2);
  });
});
