import { agentNode } from './agent.execute';
import type { NodeType } from '../node-type';
import { claimValidateNode } from './claim-validate.execute';
import { clinicalExtractNode } from './clinical-extract.execute';
import { codeNode } from './code.execute';
import { conditionNode } from './condition.execute';
import { csvParseNode } from './csv-parse.execute';
import { NODE_DESCRIPTORS } from './descriptors';
import { filterNode } from './filter.execute';
import { forEachNode } from './for-each.execute';
import { fhirBulkExportNode } from './fhir-bulk-export.execute';
import { fhirBundleSplitNode } from './fhir-bundle-split.execute';
import { fhirDeidentifyNode } from './fhir-deidentify.execute';
import { fhirValidateNode } from './fhir-validate.execute';
import { fhirpathExtractNode } from './fhirpath-extract.execute';
import { fhirQueryNode } from './fhir-query.execute';
import { fhirWriteNode } from './fhir-write.execute';
import { hl7v2AckNode } from './hl7v2-ack.execute';
import { hl7v2DeidentifyNode } from './hl7v2-deidentify.execute';
import { hl7v2MllpSendNode } from './hl7v2-mllp-send.execute';
import { terminologyLookupNode } from './terminology-lookup.execute';
import { hl7v2ToFhirNode } from './hl7v2-to-fhir.execute';
import { hl7v2ParseNode } from './hl7v2-parse.execute';
import { hl7v2SerializeNode } from './hl7v2-serialize.execute';
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
import { webhookTriggerNode } from './webhook-trigger.execute';
import { x12835ToFhirNode } from './x12-835-to-fhir.execute';
import { x12837ToFhirNode } from './x12-837-to-fhir.execute';
import { x12ParseNode } from './x12-parse.execute';

/**
 * The engine's registry (server): each node's descriptor joined with how it runs. Adding a node type is
 * its descriptor file (one line in ./descriptors.ts) and its `.execute.ts` (one line here); a descriptor
 * without an implementation fails at start, naming it.
 */
const IMPLEMENTED: readonly NodeType[] = [
  manualTriggerNode,
  scheduleTriggerNode,
  webhookTriggerNode,
  mllpListenerTriggerNode,
  conditionNode,
  switchNode,
  mergeNode,
  forEachNode,
  jsonataTransformNode,
  filterNode,
  jsonSchemaValidateNode,
  csvParseNode,
  codeNode,
  httpRequestNode,
  postgresQueryNode,
  postgresWriteNode,
  hl7v2ParseNode,
  hl7v2SerializeNode,
  hl7v2AckNode,
  hl7v2MllpSendNode,
  hl7v2ToFhirNode,
  hl7v2DeidentifyNode,
  fhirValidateNode,
  fhirpathExtractNode,
  fhirBundleSplitNode,
  fhirDeidentifyNode,
  fhirQueryNode,
  fhirWriteNode,
  fhirBulkExportNode,
  terminologyLookupNode,
  x12ParseNode,
  claimValidateNode,
  x12837ToFhirNode,
  x12835ToFhirNode,
  llmPromptNode,
  summarizeNode,
  agentNode,
  clinicalExtractNode,
  pipelineOutputNode,
] as unknown as NodeType[];

const byId = new Map(IMPLEMENTED.map((n) => [n.id, n]));

/** In catalog order (the descriptors'). */
export const NODE_TYPES: readonly NodeType[] = NODE_DESCRIPTORS.map((d) => {
  const node = byId.get(d.id);
  if (!node) throw new Error(`Node type "${d.id}" has a descriptor but no implementation in src/engine/nodes/index.ts.`);
  return node;
});

export function getNodeType(id: string): NodeType | undefined {
  return byId.get(id);
}
