/**
 * X12 EDI for health care: a lossless parser and serializer (the `x12-interchange` value, with the loops of
 * 837P/837I/835/834/270/271/276/277), 837 → FHIR Claim and 835 → FHIR ExplanationOfBenefit, and claim edits.
 */
export type { X12Element, X12Group, X12Interchange, X12Issue, X12Loop, X12Position, X12Segment, X12Separators, X12Transaction } from './types';
export { parseX12, type ParseOptions, type ParseResult } from './parse';
export { serializeX12, allSegments, segmentText } from './serialize';
export { readInterchange } from './value';
export { X12Error, X12SetError } from './errors';
export { el, components, elementName } from './elements';
export { findLoops, childLoop, segmentOf, segmentsOf, flattenLoops } from './loops';
export { claimsFrom837, type ConversionResult } from './fhir/claim-837';
export { eobsFrom835 } from './fhir/eob-835';
export { claimEdits, type ClaimIssue, type ClaimEditOptions } from './claim-edits';
export { isValidNpi, npiProblem } from './npi';
