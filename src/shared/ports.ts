/** Port types of the node catalog (DESIGN.md §3). */
export const PORT_TYPES = ['trigger-event', 'text', 'json', 'hl7v2-message', 'fhir-resource', 'fhir-bundle', 'x12-interchange', 'error-event', 'any'] as const;

export type PortType = (typeof PORT_TYPES)[number];

/**
 * Types whose values are JSON of a known shape: a port taking `json` takes them too (a JSON Schema check,
 * filter, code or JSONata node reads any of them). Never the other way round: plain `json` does not feed
 * a `fhir-resource` input without a node that makes one.
 */
const KINDS_OF_JSON: ReadonlySet<PortType> = new Set(['trigger-event', 'fhir-resource', 'fhir-bundle', 'hl7v2-message', 'x12-interchange', 'error-event']);

/** A connection fits when the source's type is the target's or a kind of it; `any` at either end always fits. */
export function portsFit(source: PortType, target: PortType): boolean {
  if (source === target || source === 'any' || target === 'any') return true;
  return target === 'json' && KINDS_OF_JSON.has(source);
}
