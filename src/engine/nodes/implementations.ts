import type { NodeType } from '../node-type';
import { agentNode } from './agent.execute';
import { claimValidateNode } from './claim-validate.execute';
import { clinicalExtractNode } from './clinical-extract.execute';
import { codeNode } from './code.execute';
import { conditionNode } from './condition.execute';
import { csvParseNode } from './csv-parse.execute';
import { fhirBulkExportNode } from './fhir-bulk-export.execute';
import { fhirBundleSplitNode } from './fhir-bundle-split.execute';
import { fhirDeidentifyNode } from './fhir-deidentify.execute';
import { fhirQueryNode } from './fhir-query.execute';
import { fhirValidateNode } from './fhir-validate.execute';
import { fhirWriteNode } from './fhir-write.execute';
import { fhirpathExtractNode } from './fhirpath-extract.execute';
import { filterNode } from './filter.execute';
import { forEachNode } from './for-each.execute';
import { hl7v2AckNode } from './hl7v2-ack.execute';
import { hl7v2DeidentifyNode } from './hl7v2-deidentify.execute';
import { hl7v2MllpSendNode } from './hl7v2-mllp-send.execute';
import { hl7v2ParseNode } from './hl7v2-parse.execute';
import { hl7v2SerializeNode } from './hl7v2-serialize.execute';
import { hl7v2ToFhirNode } from './hl7v2-to-fhir.execute';
import { httpRequestNode } from './http-request.execute';
import { jsonSchemaValidateNode } from './json-schema-validate.execute';
import { jsonataTransformNode } from './jsonata-transform.execute';
import { llmPromptNode } from './llm-prompt.execute';
import { manualTriggerNode } from './manual-trigger.execute';
import { mergeNode } from './merge.execute';
import { mllpListenerTriggerNode } from './mllp-listener-trigger.execute';
import { pipelineOutputNode } from './pipeline-output.execute';
import { postgresQueryNode } from './postgres-query.execute';
import { postgresWriteNode } from './postgres-write.execute';
import { scheduleTriggerNode } from './schedule-trigger.execute';
import { summarizeNode } from './summarize.execute';
import { switchNode } from './switch.execute';
import { terminologyLookupNode } from './terminology-lookup.execute';
import { webhookTriggerNode } from './webhook-trigger.execute';
import { errorTriggerNode } from './error-trigger.execute';
import { sendEmailNode } from './send-email.execute';
import { x12835ToFhirNode } from './x12-835-to-fhir.execute';
import { x12837ToFhirNode } from './x12-837-to-fhir.execute';
import { x12ParseNode } from './x12-parse.execute';
import type { NodeTypeId } from './registry';

/**
 * How each registered node type runs (server-only: the execute files use Node APIs, sandboxes, drivers),
 * keyed by its id. The type holds this map to ./registry.ts: every registered type has exactly one entry,
 * made from its own descriptor.
 */
export const IMPLEMENTATIONS: { readonly [Id in NodeTypeId]: NodeType & { id: Id } } = {
  'manual-trigger': manualTriggerNode,
  'schedule-trigger': scheduleTriggerNode,
  'webhook-trigger': webhookTriggerNode,
  'error-trigger': errorTriggerNode,
  'send-email': sendEmailNode,
  'mllp-listener-trigger': mllpListenerTriggerNode,
  condition: conditionNode,
  switch: switchNode,
  merge: mergeNode,
  'for-each': forEachNode,
  'jsonata-transform': jsonataTransformNode,
  filter: filterNode,
  'json-schema-validate': jsonSchemaValidateNode,
  'csv-parse': csvParseNode,
  code: codeNode,
  'http-request': httpRequestNode,
  'postgres-query': postgresQueryNode,
  'postgres-write': postgresWriteNode,
  'hl7v2-parse': hl7v2ParseNode,
  'hl7v2-serialize': hl7v2SerializeNode,
  'hl7v2-ack': hl7v2AckNode,
  'hl7v2-mllp-send': hl7v2MllpSendNode,
  'hl7v2-to-fhir': hl7v2ToFhirNode,
  'hl7v2-deidentify': hl7v2DeidentifyNode,
  'fhir-validate': fhirValidateNode,
  'fhirpath-extract': fhirpathExtractNode,
  'fhir-bundle-split': fhirBundleSplitNode,
  'fhir-deidentify': fhirDeidentifyNode,
  'fhir-query': fhirQueryNode,
  'fhir-write': fhirWriteNode,
  'fhir-bulk-export': fhirBulkExportNode,
  'terminology-lookup': terminologyLookupNode,
  'x12-parse': x12ParseNode,
  'claim-validate': claimValidateNode,
  'x12-837-to-fhir': x12837ToFhirNode,
  'x12-835-to-fhir': x12835ToFhirNode,
  'llm-prompt': llmPromptNode,
  summarize: summarizeNode,
  agent: agentNode,
  'clinical-extract': clinicalExtractNode,
  'pipeline-output': pipelineOutputNode,
};
