import { buildGraph, type Graph } from '@/engine/graph';
import { getNodeType } from '@/engine/nodes';
import { validateDefinition, type ValidationReport } from '@/engine/validate';
import { portsFit } from '@/shared/ports';
import type { PipelineConnection, PipelineDefinition, PipelineNode } from '@/shared/pipeline';
import { portsFor, searchNodes } from './planner/catalog';
import { configureNode, type Connector } from './planner';

export interface Modification {
  definition: PipelineDefinition;
  /** What was changed, in words. */
  changes: string[];
  /** What the request asked that could not be done. */
  unresolved: string[];
  validation: ValidationReport;
}

const words = (s: string): string[] => s.toLowerCase().match(/[a-z0-9]+/g) ?? [];
const label = (n: PipelineNode) => `${n.id} (${n.type})`;

/** The node a phrase points at ("the LLM step", "the FHIR write", "parse"), among the pipeline's. */
function findNode(g: Graph, phrase: string): PipelineNode | undefined {
  const p = phrase.toLowerCase();
  const all = [...g.nodes.values()];
  const by = (f: (n: (typeof all)[number]) => boolean) => all.find(f)?.def;
  // a node named by its id ("before write_2") is that node
  const exact = by((n) => p.trim() === n.def.id.toLowerCase() || p.split(/[\s,;]+/).includes(n.def.id.toLowerCase()));
  if (exact) return exact;
  if (/\b(llm|model|ai|gpt|claude|prompt)\b/.test(p)) return by((n) => n.type?.category === 'ai');
  if (/\b(write|writing|store|save|send)\b/.test(p)) return by((n) => n.type?.side_effect === 'write');
  if (/\b(output|end|result)\b/.test(p)) return by((n) => n.def.type === 'pipeline-output');
  if (/\b(trigger|start|beginning)\b/.test(p)) return by((n) => Boolean(n.type?.trigger));
  const ws = new Set(words(p));
  const named = by((n) => ws.has(n.def.id.toLowerCase()) || (n.def.name ? words(n.def.name).every((w) => ws.has(w)) : false));
  if (named) return named;
  const ranked = searchNodes(phrase).map((h) => h.type);
  return all.map((n) => n.def).filter((n) => ranked.includes(n.type)).sort((a, b) => ranked.indexOf(a.type) - ranked.indexOf(b.type))[0];
}

/** The node type a phrase asks to add, for the data at the place it goes. */
function typeFor(phrase: string, dataType: string | undefined): string | undefined {
  const p = phrase.toLowerCase();
  if (/de-?identif|anonymi|pseudonymi|redact|\bphi\b/.test(p)) return dataType === 'hl7v2-message' ? 'hl7v2-deidentify' : 'fhir-deidentify';
  if (/validat/.test(p)) return dataType === 'fhir-resource' || dataType === 'fhir-bundle' || /fhir/.test(p) ? 'fhir-validate' : 'json-schema-validate';
  if (/summar/.test(p)) return 'summarize';
  if (/\back(nowledg)?/.test(p)) return 'hl7v2-ack';
  return searchNodes(phrase)[0]?.type;
}

const freeId = (def: PipelineDefinition, base: string) => {
  let id = base;
  for (let i = 2; def.nodes.some((n) => n.id === id); i++) id = `${base}_${i}`;
  return id;
};

/**
 * A natural-language change to a pipeline (offline, rule-based): add a node before or after one ("add
 * de-identification before the LLM step"), remove one ("remove the summarize step", reconnecting around it when
 * the types fit), retries on writes ("retry writes 5 times"), a new schedule ("run it every hour"). The result is
 * validated; what could not be done is said, never guessed.
 */
export function modifyPipeline(def: PipelineDefinition, request: string, opts: { connectors?: Connector[] } = {}): Modification {
  const next: PipelineDefinition = structuredClone(def);
  const changes: string[] = [];
  const unresolved: string[] = [];
  const lower = request.toLowerCase();
  const g = buildGraph(next, getNodeType);

  const add = /\b(?:add|insert|put)\s+(?:an?\s+|the\s+)?(.+?)\s+(before|after)\s+(?:the\s+)?(.+?)(?:[.;,]|$)/i.exec(request);
  if (add) {
    const [, what, where, anchorPhrase] = add as unknown as [string, string, 'before' | 'after', string];
    const anchor = findNode(g, anchorPhrase);
    if (!anchor) unresolved.push(`no node matches "${anchorPhrase}"`);
    else {
      const edge = where === 'before' ? g.incoming.get(anchor.id)?.[0] : g.outgoing.get(anchor.id)?.[0];
      const upstream = edge ? g.nodes.get(edge.source) : where === 'after' ? g.nodes.get(anchor.id) : undefined;
      const dataType = upstream?.outputs.find((p) => p.name === (edge?.source_port ?? upstream.outputs[0]?.name))?.type;
      const type = typeFor(what, dataType);
      if (!type || !edge) unresolved.push(!type ? `no node type for "${what}"` : `${label(anchor)} has no connection ${where === 'before' ? 'into' : 'out of'} it to put a node on`);
      else {
        const configured = configureNode(type, request, { connectors: opts.connectors, inputType: dataType });
        const config = configured?.config ?? {};
        const ports = portsFor(type, config);
        const sourceType = g.nodes.get(edge.source)?.outputs.find((p) => p.name === edge.source_port)?.type ?? 'any';
        const targetType = g.nodes.get(edge.target)?.inputs.find((p) => p.name === edge.target_port)?.type ?? 'any';
        const inPort = ports.inputs.find((p) => portsFit(sourceType, p.type));
        const outPort = ports.outputs.find((p) => portsFit(p.type, targetType));
        if (!inPort || !outPort) unresolved.push(`${type} does not fit between ${edge.source}.${edge.source_port} and ${edge.target}.${edge.target_port} (types ${sourceType} → ${targetType})`);
        else {
          const id = freeId(next, type.replace(/-/g, '_'));
          const at = g.nodes.get(edge.target)!.def.position;
          next.nodes.push({ id, type, config, position: { x: at.x - 120, y: at.y + 120 } });
          next.connections = next.connections.filter((c) => !(c.source === edge.source && c.source_port === edge.source_port && c.target === edge.target && c.target_port === edge.target_port));
          next.connections.push({ source: edge.source, source_port: edge.source_port, target: id, target_port: inPort.name } as PipelineConnection, { source: id, source_port: outPort.name, target: edge.target, target_port: edge.target_port } as PipelineConnection);
          changes.push(`added ${id} (${type}) between ${edge.source} and ${edge.target}${configured?.filled.length ? `: ${configured.filled.join(', ')}` : ''}`);
        }
      }
    }
  }

  const remove = /\b(?:remove|delete|drop)\s+(?:the\s+)?(.+?)(?:\s+(?:node|step))?(?:[.;,]|$)/i.exec(request);
  if (remove) {
    const node = findNode(g, remove[1]!);
    if (!node) unresolved.push(`no node matches "${remove[1]}"`);
    else {
      const into = next.connections.filter((c) => c.target === node.id);
      const out = next.connections.filter((c) => c.source === node.id);
      next.nodes = next.nodes.filter((n) => n.id !== node.id);
      next.connections = next.connections.filter((c) => c.source !== node.id && c.target !== node.id);
      const from = into[0];
      for (const o of out) {
        const fromType = from ? g.nodes.get(from.source)?.outputs.find((p) => p.name === from.source_port)?.type : undefined;
        const toType = g.nodes.get(o.target)?.inputs.find((p) => p.name === o.target_port)?.type;
        if (from && fromType && toType && portsFit(fromType, toType)) next.connections.push({ source: from.source, source_port: from.source_port, target: o.target, target_port: o.target_port } as PipelineConnection);
        else unresolved.push(`${o.target}.${o.target_port} lost its input: connect it`);
      }
      changes.push(`removed ${label(node)}`);
    }
  }

  const retry = /\bretr(?:y|ies)\b[^.]*?(\d+)?\s*(?:times|attempts)?/.exec(lower);
  if (retry) {
    const attempts = Math.min(Number(retry[1] ?? 3), 10);
    const writes = next.nodes.filter((n) => getNodeType(n.type)?.side_effect === 'write');
    for (const n of writes) n.settings = { ...n.settings, retry: { max_attempts: attempts, backoff_ms: n.settings?.retry?.backoff_ms ?? 500 } };
    if (writes.length) changes.push(`${writes.map((n) => n.id).join(', ')}: up to ${attempts} attempts`);
    else unresolved.push('no write node to retry');
  }

  const trigger = next.nodes.find((n) => n.type === 'schedule-trigger');
  if (trigger && /\b(every|daily|hourly|weekly|nightly|at \d|cron|schedule)\b/.test(lower) && !add) {
    const r = configureNode('schedule-trigger', request, { base: trigger.config });
    if (r && r.filled.length) {
      trigger.config = r.config;
      changes.push(`${trigger.id}: ${r.filled.join(', ')}`);
    }
  }

  if (!changes.length && !unresolved.length) unresolved.push('nothing in the request that this planner can change: add … before/after …, remove …, retry writes …, a new schedule');
  return { definition: next, changes, unresolved, validation: validateDefinition(next, getNodeType) };
}
