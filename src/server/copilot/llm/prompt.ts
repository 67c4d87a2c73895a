import { nodeBrief } from '@/engine/node-docs';
import { NODE_DESCRIPTORS, getNodeDescriptor } from '@/engine/nodes/descriptors';
import { OUTPUT_TYPE } from '../planner/behaviors';
import { searchNodes } from '../planner/catalog';
import type { Connector } from '../planner/configure';

/** How many catalog entries beyond the triggers and the offline planner's choice the prompt carries. */
const SEARCH_HITS = 14;

/**
 * The catalog entries a request needs in the prompt: every trigger (one must start the pipeline), the node types
 * the offline planner chose for the same request, the best catalog-search hits, and the output node type. The whole
 * catalog would fit a large window but drowns a small model; the type enum of the answer still allows any node.
 */
export function relevantNodeTypes(description: string, offlineChoice: string[]): string[] {
  const types = new Set<string>(NODE_DESCRIPTORS.filter((d) => d.trigger).map((d) => d.id));
  for (const t of offlineChoice) types.add(t);
  for (const hit of searchNodes(description).slice(0, SEARCH_HITS)) types.add(hit.type);
  types.add(OUTPUT_TYPE);
  return [...types].filter((t) => getNodeDescriptor(t));
}

const RULES = [
  'You design pipelines for Clinflow, a clinical data pipeline service. A pipeline is a directed acyclic graph of typed nodes.',
  'Rules:',
  '- Exactly one trigger node starts the pipeline. Every other node must be reachable from it.',
  '- A connection goes from an output port of one node (source, source_port) to an input port of another (target, target_port), ' +
    'using the port names listed for each node type.',
  '- Port types must fit: the source\'s type equals the target\'s, or the target is "json" and the source is one of trigger-event, ' +
    'fhir-resource, fhir-bundle, hl7v2-message, x12-interchange; "any" fits either way. Never connect text to json or json to ' +
    'fhir-resource: put the node that parses or converts in between.',
  '- Every required input port must be connected. Optional ports may stay empty.',
  "- A node's config must follow its config fields exactly (names, types, allowed values); leave out a field to take its default. " +
    'Use the example configs as a guide.',
  `- What the pipeline produces reaches ${OUTPUT_TYPE} nodes (config {"key": "<name>"}).`,
  '- Node ids are short snake_case words (e.g. "parse", "to_fhir", "write"), unique in the pipeline.',
  '- Validate FHIR before writing it to a server; de-identify patient data before it reaches an external language model.',
  '- Nodes that talk to other systems take a connector by name in their "connector" config field: ' +
    "use one of the organization's connectors of the right type when there is one.",
].join('\n');

/** The system prompt: the rules of a definition and the relevant catalog entries. */
export function systemPrompt(types: string[]): string {
  const entries = types.map((t) => nodeBrief(getNodeDescriptor(t)!)).join('\n\n');
  return `${RULES}\n\nNode types (the ones relevant to this request; the answer's type field lists every type there is):\n\n${entries}`;
}

/** The user's request and what the organization has to work with. */
export function requestPrompt(description: string, connectors: Connector[]): string {
  const own = connectors.length
    ? connectors.map((c) => `- "${c.name}" (${c.type})`).join('\n')
    : 'None yet: leave connector fields out; the user will add one.';
  return [
    `Design a pipeline for this request:\n\n${description}\n\n`,
    `The organization's connectors:\n${own}\n\n`,
    'Answer with the whole pipeline: a short name, the reasoning in a few short steps, the nodes and the connections.',
  ].join('');
}

/** What goes back to the model when its answer did not pass: the problems, each with its node. */
export function repairPrompt(problems: string[]): string {
  const list = problems.map((p) => `- ${p}`).join('\n');
  return `The pipeline you proposed is not valid. Clinflow's validator found:\n${list}\n\nAnswer again with the whole corrected pipeline.`;
}
