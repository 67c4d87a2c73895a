import type { Bundle } from '@medplum/fhirtypes';
import { NodeError } from '../node-error';
import { asNodeError, fhirClientOf } from '../lib/fhir-connector';
import { implementNode, type NodeContext } from '../node-type';
import { fhirQuery } from './fhir-query';

const PLACEHOLDER = /\{\{\s*([\w$-]+(?:\.[\w$-]+)*)\s*\}\}/g;

/**
 * Fills `{{field}}` placeholders from `values` (dotted paths allowed), each value passed through `encode`.
 * A placeholder without a scalar value fails with `code`, naming it.
 */
export function fillTemplate(template: string, values: unknown, encode: (v: string) => string, code: string): string {
  return template.replace(PLACEHOLDER, (_, path: string) => {
    let value: unknown = values;
    for (const key of path.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return encode(String(value));
    const what = value === undefined || value === null ? 'has no value' : 'is not a string or number';
    throw new NodeError(
      code,
      `{{${path}}} ${what} in the input (fields: ${Object.keys(values && typeof values === 'object' ? values : {}).join(', ') || 'none'})`,
    );
  });
}

const SEARCH = /^[A-Z][A-Za-z]+(\?.*)?$/;
const READ = /^([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})$/;

export const fhirQueryNode = implementNode(fhirQuery, {
  async execute(ctx, inputs, config) {
    const values = inputs.params ?? ctx.executionInputs;
    const query = fillTemplate(config.query.trim(), values, encodeURIComponent, 'FHIR_QUERY_INVALID');
    const { client, name } = await fhirClientOf(ctx, config.connector, config.timeout_ms);
    try {
      if (config.mode === 'read') {
        const match = READ.exec(query);
        if (!match) throw new NodeError('FHIR_QUERY_INVALID', `A read needs \`Type/id\` (e.g. Patient/123), not "${query}"`);
        const resource = await client.read(match[1]!, match[2]!, { signal: ctx.signal });
        ctx.log('info', `read ${match[1]}/${match[2]} from ${name}`);
        const bundle: Bundle = {
          resourceType: 'Bundle',
          type: 'searchset',
          total: 1,
          entry: [{ fullUrl: client.url(`${match[1]}/${match[2]}`), resource, search: { mode: 'match' } }],
        };
        return { outputs: { resource, bundle } };
      }
      if (!SEARCH.test(query))
        throw new NodeError('FHIR_QUERY_INVALID', `A search needs \`Type?param=value…\` (e.g. Patient?family=smith), not "${query.split('?')[0]}…"`);
      const bundle = await client.search(query, { signal: ctx.signal, maxPages: config.max_pages, maxResources: config.max_resources });
      const found = bundle.entry?.length ?? 0;
      ctx.log('info', `${query.split('?')[0]} search on ${name}: ${found} entries${bundle.total !== undefined ? ` of ${bundle.total}` : ''}`);
      if (bundle.link?.some((l) => l.relation === 'next') || (bundle.total !== undefined && found < bundle.total)) {
        ctx.log(
          'warn',
          [
            `the search was cut short at ${found} entries (max_pages ${config.max_pages}, max_resources`,
            `${config.max_resources}); the bundle's next link, when there is one, says where it stopped`,
          ].join(' '),
        );
      }
      return { outputs: { bundle } };
    } catch (e) {
      throw asNodeError(e);
    }
  },
});
