/**
 * HL7 v2 → FHIR R4: `convertMessage(message)` turns a parsed `hl7v2-message` into a Bundle (see convert.ts), and
 * `compareBundles` measures how far a bundle agrees with another one (the Microsoft FHIR-Converter's output).
 */
export { convertMessage, SUPPORTED_TYPES, UnsupportedMessageError, type ConversionResult } from './convert';
export type { ConvertOptions } from './context';
export { compareBundles, KEY_TYPES, type Comparison, type FactResult } from './compare';
export { traceMapping, type MappingRule } from './trace';
