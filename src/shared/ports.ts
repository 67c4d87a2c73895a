/** Port types of the node catalog (DESIGN.md §3); a connection fits when types are equal or either is `any`. */
export const PORT_TYPES = [
  'trigger-event',
  'text',
  'json',
  'hl7v2-message',
  'fhir-resource',
  'fhir-bundle',
  'x12-interchange',
  'any',
] as const;

export type PortType = (typeof PORT_TYPES)[number];

export function portsFit(source: PortType, target: PortType): boolean {
  return source === target || source === 'any' || target === 'any';
}
