import { buildGraph, type Graph } from '@/engine/graph';
import { getNodeType } from '@/engine/nodes';
import { NODE_DESCRIPTORS } from '@/engine/nodes/descriptors';
import type { Finding } from '@/engine/validate';
import type { PipelineDefinition } from '@/shared/pipeline';
import { CREDENTIAL_HEADER } from '@/shared/credential-headers';

const OFFLINE = 'clinflow/offline';
/** Node types that de-identify (their descriptor's plan has the job). */
const DEIDENTIFY = new Set(NODE_DESCRIPTORS.filter((d) => d.plan?.jobs?.includes('deidentify')).map((d) => d.id));

/** Nodes that bring patient data into a pipeline (healthcare and claims nodes, MLLP feeds), de-identification aside. */
function carriesPhi(g: Graph, id: string): boolean {
  const n = g.nodes.get(id);
  const category = n?.type?.category;
  return Boolean(n && !DEIDENTIFY.has(n.def.type) && (category === 'healthcare' || category === 'claims'));
}

/** Whether patient data reaches `id` on some path that no de-identification node interrupts. */
function phiReaches(g: Graph, id: string): boolean {
  const seen = new Set<string>([id]);
  const stack = [id];
  while (stack.length) {
    for (const c of g.incoming.get(stack.pop()!) ?? []) {
      if (seen.has(c.source) || DEIDENTIFY.has(g.nodes.get(c.source)?.def.type ?? '')) continue;
      if (carriesPhi(g, c.source)) return true;
      seen.add(c.source);
      stack.push(c.source);
    }
  }
  return false;
}

/** Whether a node of `type` is upstream of `id`. */
function upstreamHas(g: Graph, id: string, type: string): boolean {
  const seen = new Set<string>([id]);
  const stack = [id];
  while (stack.length) {
    for (const c of g.incoming.get(stack.pop()!) ?? []) {
      if (g.nodes.get(c.source)?.def.type === type) return true;
      if (!seen.has(c.source)) {
        seen.add(c.source);
        stack.push(c.source);
      }
    }
  }
  return false;
}

/**
 * What the copilot checks beyond the engine's validator (issue 10): patient data sent to a model outside this
 * server without de-identification, FHIR written without validation, writes to outside systems with no retry,
 * credentials typed into an HTTP request node instead of a connector.
 * Warnings: the pipeline runs, but a reviewer would stop it.
 */
export function copilotFindings(def: PipelineDefinition): Finding[] {
  const g = buildGraph(def, getNodeType);
  const out: Finding[] = [];
  for (const [id, n] of g.nodes) {
    const d = n.type;
    if (!d || n.def.disabled) continue;
    if (d.category === 'ai') {
      const model = typeof n.def.config?.model === 'string' ? n.def.config.model : OFFLINE;
      const external = Boolean(d.plan?.externalModel) || model !== OFFLINE;
      if (external && phiReaches(g, id)) {
        const which = d.plan?.externalModel ? "the agent's language model" : `the external model ${model}`;
        const add = `add ${[...DEIDENTIFY].sort().join(' or ')} before this node`;
        const message = `Patient data reaches ${which} without de-identification: ${add} (or use clinflow/offline, which runs on this server).`;
        out.push({ node_id: id, code: 'PHI_TO_EXTERNAL_LLM', message });
      }
    }
    const headers = d.credentialHeaders ? (n.def.config?.[d.credentialHeaders] as Record<string, unknown> | undefined) : undefined;
    const typed = Object.keys(headers ?? {}).filter((h) => CREDENTIAL_HEADER.test(h));
    if (typed.length) {
      out.push({
        node_id: id,
        code: 'CREDENTIAL_IN_NODE',
        message: [
          `${typed.join(', ')} is typed into the node: it is stored with every version of the pipeline`,
          `(shown masked). Put the credentials in an http connector and name it in \`connector\`.`,
        ].join(' '),
      });
    }
    const check = d.plan?.precededBy;
    if (check && !upstreamHas(g, id, check.type)) {
      const message = `FHIR resources are written without validation: add ${check.type} before this node so the server is not sent invalid resources.`;
      out.push({ node_id: id, code: 'FHIR_NOT_VALIDATED', message });
    }
    if (d.side_effect === 'write' && n.settings.retry.max_attempts <= 1) {
      out.push({
        node_id: id,
        code: 'WRITE_WITHOUT_RETRY',
        message: [
          `${d.name} writes to an outside system and is not retried when it fails: set settings.retry.max_attempts`,
          `(e.g. 3); writes carry an idempotency key, so a retry does not write twice.`,
        ].join(' '),
      });
    }
  }
  return out;
}
