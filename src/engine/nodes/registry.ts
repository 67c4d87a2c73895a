import { agent } from './agent';
import { claimValidate } from './claim-validate';
import { clinicalExtract } from './clinical-extract';
import { code } from './code';
import { condition } from './condition';
import { csvParse } from './csv-parse';
import { fhirBulkExport } from './fhir-bulk-export';
import { fhirBundleSplit } from './fhir-bundle-split';
import { fhirDeidentify } from './fhir-deidentify';
import { fhirValidate } from './fhir-validate';
import { fhirpathExtract } from './fhirpath-extract';
import { fhirQuery } from './fhir-query';
import { fhirWrite } from './fhir-write';
import { filter } from './filter';
import { forEach } from './for-each';
import { hl7v2Ack } from './hl7v2-ack';
import { hl7v2Deidentify } from './hl7v2-deidentify';
import { hl7v2MllpSend } from './hl7v2-mllp-send';
import { hl7v2Parse } from './hl7v2-parse';
import { hl7v2ToFhir } from './hl7v2-to-fhir';
import { hl7v2Serialize } from './hl7v2-serialize';
import { httpRequest } from './http-request';
import { jsonSchemaValidate } from './json-schema-validate';
import { jsonataTransform } from './jsonata-transform';
import { llmPrompt } from './llm-prompt';
import { manualTrigger } from './manual-trigger';
import { merge } from './merge';
import { mllpListenerTrigger } from './mllp-listener-trigger';
import { pipelineOutput } from './pipeline-output';
import { postgresQuery } from './postgres-query';
import { postgresWrite } from './postgres-write';
import { scheduleTrigger } from './schedule-trigger';
import { summarize } from './summarize';
import { switchDescriptor } from './switch';
import { terminologyLookup } from './terminology-lookup';
import { webhookTrigger } from './webhook-trigger';
import { errorTrigger } from './error-trigger';
import { sendEmail } from './send-email';
import { x12835ToFhir } from './x12-835-to-fhir';
import { x12837ToFhir } from './x12-837-to-fhir';
import { x12Parse } from './x12-parse';

/**
 * The node types, in catalog order: the one list a node type is added to (one line). Isomorphic: only
 * descriptors here, so the browser can import it; how each node runs is paired with it in ./implementations.ts,
 * which the compiler holds to this list (a type without an implementation, or one paired with another type's
 * descriptor, does not compile).
 */
export const NODE_REGISTRY = [
  manualTrigger,
  scheduleTrigger,
  webhookTrigger,
  mllpListenerTrigger,
  errorTrigger,
  condition,
  switchDescriptor,
  merge,
  forEach,
  jsonataTransform,
  filter,
  jsonSchemaValidate,
  csvParse,
  code,
  httpRequest,
  sendEmail,
  postgresQuery,
  postgresWrite,
  hl7v2Parse,
  hl7v2Serialize,
  hl7v2Ack,
  hl7v2MllpSend,
  hl7v2ToFhir,
  hl7v2Deidentify,
  fhirValidate,
  fhirpathExtract,
  fhirBundleSplit,
  fhirDeidentify,
  fhirQuery,
  fhirWrite,
  fhirBulkExport,
  terminologyLookup,
  x12Parse,
  claimValidate,
  x12837ToFhir,
  x12835ToFhir,
  llmPrompt,
  summarize,
  agent,
  clinicalExtract,
  pipelineOutput,
] as const;

/** The id of a registered node type. */
export type NodeTypeId = (typeof NODE_REGISTRY)[number]['id'];
