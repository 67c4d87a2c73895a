import { PipelineDefinition } from '@/shared/pipeline';
import { portsFit } from '@/shared/ports';
import { configFieldLabel, configProblem } from './config-words';
import { passThroughPorts } from './disabled';
import { buildGraph, descendants, topologicalOrder, type Graph, type Registry } from './graph';

export interface Finding {
  /** The node the problem is on; null for problems of the whole pipeline. */
  node_id: string | null;
  code: string;
  message: string;
  /** The connection concerned, when there is one. */
  connection_id?: string;
}

export interface ValidationReport {
  valid: boolean;
  errors: Finding[];
  warnings: Finding[];
}

/**
 * Checks a definition the way the editor, the copilot and execution all need it checked: shape, node
 * types, configs, connections and port types, cycles, triggers, reachability. Every problem is reported
 * (not only the first), each with its node id.
 */
export function validateDefinition(input: unknown, registry: Registry): ValidationReport {
  const errors: Finding[] = [];
  const warnings: Finding[] = [];
  const shape = PipelineDefinition.safeParse(input);
  if (!shape.success) {
    for (const issue of shape.error.issues) {
      const nodeIndex = issue.path[0] === 'nodes' ? Number(issue.path[1]) : NaN;
      const raw = (input as { nodes?: { id?: unknown }[] } | null)?.nodes?.[nodeIndex]?.id;
      errors.push({
        node_id: typeof raw === 'string' ? raw : null,
        code: 'INVALID_SHAPE',
        message: `${issue.path.join('.') || 'definition'}: ${issue.message}`,
      });
    }
    return { valid: false, errors, warnings };
  }
  const def = shape.data;
  const graph = buildGraph(def, registry);
  checkNodes(graph, errors);
  checkSubgraphs(graph, registry, errors, warnings);
  checkConnections(def, graph, errors);
  checkStructure(graph, errors, warnings);
  checkDisabled(graph, errors, warnings);
  return { valid: errors.length === 0, errors, warnings };
}

/**
 * Pipelines nested in a node's config (for-each bodies) are checked like the outer one; what is found
 * there is reported on the outer node, with the path to the inner node in the message.
 */
function checkSubgraphs(graph: Graph, registry: Registry, errors: Finding[], warnings: Finding[]): void {
  for (const [id, node] of graph.nodes) {
    if (!node.type?.subgraphs || node.configError) continue;
    for (const sub of node.type.subgraphs(node.config)) {
      const report = validateDefinition(sub.definition, registry);
      const at = (f: Finding): Finding => ({
        node_id: id,
        code: f.code,
        message: `${configFieldLabel(node.type, [sub.field])}${f.node_id ? ` › node "${f.node_id}"` : ''}: ${f.message}`,
      });
      errors.push(...report.errors.map(at));
      // a body hands its results back to the outer node: "nothing leaves the pipeline" does not apply
      warnings.push(...report.warnings.filter((w) => w.code !== 'NO_OUTPUT').map(at));
      for (const inner of sub.definition.nodes) {
        if (registry(inner.type)?.trigger && !sub.triggers.includes(inner.type)) {
          const allowed = sub.triggers.join(' or ');
          const message = `${configFieldLabel(node.type, [sub.field])} › node "${inner.id}": a ${sub.field} starts with ${allowed}, not ${inner.type}.`;
          errors.push({ node_id: id, code: 'INVALID_CONFIG', message });
        }
      }
    }
  }
}

function checkNodes(graph: Graph, errors: Finding[]): void {
  for (const [id, node] of graph.nodes) {
    if (!node.type) {
      errors.push({ node_id: id, code: 'UNKNOWN_NODE_TYPE', message: `Unknown node type "${node.def.type}".` });
      continue;
    }
    for (const issue of node.configError?.issues ?? []) {
      errors.push({ node_id: id, code: 'INVALID_CONFIG', message: configProblem(node.type, issue) });
    }
  }
}

function checkConnections(def: PipelineDefinition, graph: Graph, errors: Finding[]): void {
  const ids = new Set<string>();
  const endpoints = new Set<string>();
  const fedInputs = new Map<string, string>();
  for (const c of def.connections) {
    const at = { node_id: c.target, connection_id: c.id };
    if (c.id !== undefined) {
      if (ids.has(c.id)) errors.push({ ...at, code: 'DUPLICATE_CONNECTION', message: `Connection id "${c.id}" is used twice.` });
      ids.add(c.id);
    }
    const source = graph.nodes.get(c.source);
    const target = graph.nodes.get(c.target);
    if (!source || !target) {
      const missing = !source ? c.source : c.target;
      errors.push({
        ...at,
        node_id: source ? c.source : c.target,
        code: 'DANGLING_CONNECTION',
        message: `Connection ${c.source}.${c.source_port} → ${c.target}.${c.target_port} refers to a node "${missing}" that does not exist.`,
      });
      continue;
    }
    const key = `${c.source}.${c.source_port}>${c.target}.${c.target_port}`;
    if (endpoints.has(key))
      errors.push({ ...at, code: 'DUPLICATE_CONNECTION', message: `${c.source}.${c.source_port} is connected to ${c.target}.${c.target_port} twice.` });
    endpoints.add(key);
    if (c.source === c.target) errors.push({ ...at, code: 'CYCLE', message: `Node "${c.source}" is connected to itself.` });
    // ports of a node with an unknown type or an invalid config are unknown: that node is reported already
    const sourceKnown = source.type && !source.configError;
    const targetKnown = target.type && !target.configError;
    const out = source.outputs.find((p) => p.name === c.source_port);
    const inp = target.inputs.find((p) => p.name === c.target_port);
    if (sourceKnown && !out)
      errors.push({
        ...at,
        node_id: c.source,
        code: 'UNKNOWN_PORT',
        message: `Node "${c.source}" (${source.def.type}) has no output "${c.source_port}"; it has ${names(source.outputs)}.`,
      });
    if (targetKnown && !inp)
      errors.push({
        ...at,
        code: 'UNKNOWN_PORT',
        message: `Node "${c.target}" (${target.def.type}) has no input "${c.target_port}"; it has ${names(target.inputs)}.`,
      });
    if (out && inp && !portsFit(out.type, inp.type)) {
      errors.push({
        ...at,
        code: 'PORT_TYPE_MISMATCH',
        message: `${c.source}.${c.source_port} gives ${out.type} but ${c.target}.${c.target_port} takes ${inp.type}.`,
      });
    }
    const port = `${c.target}.${c.target_port}`;
    const other = fedInputs.get(port);
    if (other && other !== `${c.source}.${c.source_port}`) {
      errors.push({
        ...at,
        code: 'INPUT_ALREADY_CONNECTED',
        message: `Input ${port} is fed by both ${other} and ${c.source}.${c.source_port}; join them with a merge node.`,
      });
    }
    fedInputs.set(port, `${c.source}.${c.source_port}`);
  }
}

function checkStructure(graph: Graph, errors: Finding[], warnings: Finding[]): void {
  if (graph.nodes.size === 0) {
    errors.push({ node_id: null, code: 'EMPTY_PIPELINE', message: 'The pipeline has no nodes.' });
    return;
  }
  if (graph.triggers.length === 0) {
    errors.push({ node_id: null, code: 'MISSING_TRIGGER', message: 'The pipeline has no trigger: add a manual, schedule or webhook trigger.' });
  }
  for (const id of graph.triggers.slice(1)) {
    errors.push({ node_id: id, code: 'MULTIPLE_TRIGGERS', message: `A pipeline has one trigger; "${graph.triggers[0]}" is already one.` });
  }
  const { cycle } = topologicalOrder(graph);
  if (cycle.length > 0) {
    for (const id of cycle)
      errors.push({ node_id: id, code: 'CYCLE', message: `Node "${id}" is part of a cycle (${cycle.join(' → ')}); pipelines are acyclic.` });
  }
  for (const [id, node] of graph.nodes) {
    const fed = graph.fed.get(id);
    for (const port of node.inputs) {
      if (!port.optional && !fed?.has(port.name)) {
        errors.push({ node_id: id, code: 'INPUT_NOT_CONNECTED', message: `Input "${port.name}" of "${id}" is not connected.` });
      }
    }
  }
  const reachable = graph.triggers[0] ? descendants(graph, graph.triggers[0]) : new Set<string>();
  if (graph.triggers.length > 0) {
    for (const id of graph.nodes.keys()) {
      if (!reachable.has(id) && !graph.triggers.includes(id)) {
        warnings.push({ node_id: id, code: 'UNREACHABLE', message: `Node "${id}" cannot be reached from the trigger; it will never run.` });
      }
    }
  }
  const hasOutput = [...graph.nodes.values()].some((n) => n.type?.output || n.type?.side_effect === 'write');
  if (!hasOutput) {
    warnings.push({ node_id: null, code: 'NO_OUTPUT', message: 'Nothing leaves this pipeline: add a pipeline-output or a node that writes somewhere.' });
  }
}

/**
 * Disabled nodes: a warning on each, saying what passes through it. A disabled trigger is an error: it
 * cannot start a run (to stop a deployed pipeline from running, undeploy it).
 */
function checkDisabled(graph: Graph, errors: Finding[], warnings: Finding[]): void {
  for (const [id, node] of graph.nodes) {
    if (!node.def.disabled) continue;
    if (node.type?.trigger) {
      errors.push({
        node_id: id,
        code: 'TRIGGER_DISABLED',
        message: `The trigger "${id}" is disabled: nothing can start the pipeline. Enable it (to stop a deployed pipeline from running, undeploy it).`,
      });
      continue;
    }
    const { from, to } = passThroughPorts(node);
    const passes = !from
      ? 'it has no input, so nothing goes on from it'
      : to.length
        ? `its input "${from.name}" passes through to ${to.map((p) => `"${p}"`).join(', ')}`
        : `none of its outputs takes its input "${from.name}" (${from.type}), so nothing goes on from it`;
    warnings.push({ node_id: id, code: 'NODE_DISABLED', message: `Node "${id}" is disabled and does not run: ${passes}.` });
  }
}

function names(ports: { name: string }[]): string {
  return ports.length ? ports.map((p) => `"${p.name}"`).join(', ') : 'none';
}
