import { getNodeDescriptor } from '@/engine/nodes/descriptors';
import type { PipelineDefinition, PipelineNode } from '@/shared/pipeline';
import { isMasked, mask } from '@/server/secrets';
import { CREDENTIAL_HEADER } from '@/shared/credential-headers';

type Visit = (node: PipelineNode, headers: Record<string, string>) => Record<string, string>;

/** The headers of every node whose descriptor says it holds credential headers, nested definitions (for-each bodies) included, rewritten by `visit`. */
function mapHeaders(def: PipelineDefinition, visit: Visit): PipelineDefinition {
  const nodes = def.nodes.map((n) => {
    let config = n.config;
    for (const [k, v] of Object.entries(config)) {
      if (v && typeof v === 'object' && Array.isArray((v as { nodes?: unknown }).nodes))
        config = { ...config, [k]: mapHeaders(v as PipelineDefinition, visit) };
    }
    const field = getNodeDescriptor(n.type)?.credentialHeaders;
    const headers = field ? config[field] : undefined;
    if (field && headers && typeof headers === 'object' && !Array.isArray(headers))
      config = { ...config, [field]: visit(n, headers as Record<string, string>) };
    return config === n.config ? n : { ...n, config };
  });
  return { ...def, nodes };
}

/**
 * A definition as the API shows it (issue 14 #5): credential headers of nodes that hold them (http-request) masked (`••••1234`),
 * so that a read-scope key cannot read them. Connectors are the place for credentials; this covers those
 * typed into a node anyway.
 */
export function maskHeaderSecrets(def: PipelineDefinition): PipelineDefinition {
  return mapHeaders(def, (_n, headers) =>
    Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, CREDENTIAL_HEADER.test(k) && typeof v === 'string' && v !== '' ? mask(v) : v])),
  );
}

/** The stored credential headers, by node id and header name, from earlier definitions (newest first). */
function secretsOf(defs: PipelineDefinition[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const def of defs) {
    mapHeaders(def, (n, headers) => {
      for (const [k, v] of Object.entries(headers)) {
        if (CREDENTIAL_HEADER.test(k) && typeof v === 'string' && !isMasked(v))
          found.set(`${n.id}\u0000${k.toLowerCase()}`, [...(found.get(`${n.id}\u0000${k.toLowerCase()}`) ?? []), v]);
      }
      return headers;
    });
  }
  return found;
}

/**
 * A definition sent back with masked credential headers (what GET showed) gets the stored values again: the
 * newest earlier value of the same node and header whose mask matches. A mask with no such value is left as it is.
 */
export function restoreHeaderSecrets(next: PipelineDefinition, earlier: PipelineDefinition[]): PipelineDefinition {
  const stored = secretsOf(earlier);
  return mapHeaders(next, (n, headers) =>
    Object.fromEntries(
      Object.entries(headers).map(([k, v]) => {
        if (!isMasked(v)) return [k, v];
        const original = stored.get(`${n.id}\u0000${k.toLowerCase()}`)?.find((s) => mask(s) === v);
        return [k, original ?? v];
      }),
    ),
  );
}
