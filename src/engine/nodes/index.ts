import type { NodeType } from '../types';
import { code } from './code';
import { condition } from './condition';
import { csvParse } from './csv-parse';
import { forEach } from './for-each';
import { filter } from './filter';
import { httpRequest } from './http-request';
import { jsonSchemaValidate } from './json-schema-validate';
import { jsonataTransform } from './jsonata-transform';
import { manualTrigger } from './manual-trigger';
import { merge } from './merge';
import { pipelineOutput } from './pipeline-output';
import { scheduleTrigger } from './schedule-trigger';
import { switchNode } from './switch';
import { webhookTrigger } from './webhook-trigger';

/** The explicit registry: adding a node is one file plus one line here. */
export const NODE_TYPES: readonly NodeType[] = [
  manualTrigger,
  scheduleTrigger,
  webhookTrigger,
  condition,
  switchNode,
  merge,
  forEach,
  jsonataTransform,
  filter,
  jsonSchemaValidate,
  csvParse,
  code,
  httpRequest,
  pipelineOutput,
] as unknown as NodeType[];

const byId = new Map(NODE_TYPES.map((n) => [n.id, n]));

export function getNodeType(id: string): NodeType | undefined {
  return byId.get(id);
}
