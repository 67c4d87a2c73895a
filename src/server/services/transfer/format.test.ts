import { describe, expect, it } from 'vitest';
import { connectorRefs, FORMAT, renameConnectors, upgradeDocument } from './format';

/* in (manual-trigger) ──▶ q (fhir-query, connector "c-1") ──▶ send (hl7v2-mllp-send, connector "Lab") ; t (jsonata, no connector) */
const definition = {
  nodes: [
    { id: 'in', type: 'manual-trigger', config: {}, position: { x: 0, y: 0 } },
    { id: 'q', type: 'fhir-query', config: { connector: 'c-1' }, position: { x: 0, y: 0 } },
    { id: 'send', type: 'hl7v2-mllp-send', config: { connector: ' Lab ' }, position: { x: 0, y: 0 } },
    { id: 't', type: 'jsonata-transform', config: { expression: '$' }, position: { x: 0, y: 0 } },
  ],
  connections: [],
};

describe('the export format', () => {
  it('finds each node’s connector with the type it takes, and renames only those', () => {
    expect(connectorRefs(definition as never)).toEqual([
      { nodeId: 'q', ref: 'c-1', type: 'fhir' },
      { nodeId: 'send', ref: 'Lab', type: 'hl7-mllp' },
    ]);
    const renamed = renameConnectors(definition as never, (ref, type) => `${type}:${ref}`);
    expect(renamed.nodes.map((n) => (n.config as { connector?: string }).connector)).toEqual([undefined, 'fhir:c-1', 'hl7-mllp:Lab', undefined]);
  });

  it('reads version 0 (a pipeline as the API answers it, or several) as version 1', () => {
    const legacy = { id: 'x', name: 'Old', description: 'd', version: 4, definition, metadata: { data_settings: { overrides: { policy: 'errors' } } } };
    const one = upgradeDocument(legacy);
    expect('doc' in one && one.doc).toMatchObject({
      format: FORMAT,
      format_version: 1,
      pipelines: [
        {
          name: 'Old',
          description: 'd',
          version: 4,
          data_settings: { policy: 'errors' },
          connectors: [
            { name: 'c-1', type: 'fhir' },
            { name: 'Lab', type: 'hl7-mllp' },
          ],
        },
      ],
    });
    const two = upgradeDocument([legacy, { ...legacy, name: 'Older' }]);
    expect('doc' in two && two.doc.pipelines.map((p) => p.name)).toEqual(['Old', 'Older']);
  });

  it('refuses what is not an export, and says when a file comes from a newer Clinflow', () => {
    expect(upgradeDocument({ hello: 1 })).toEqual({ error: expect.stringContaining('Not a Clinflow pipeline export') });
    expect(upgradeDocument({ format: FORMAT, format_version: 2, pipelines: [] })).toEqual({ error: expect.stringContaining('newer Clinflow') });
    expect(upgradeDocument({ format: FORMAT, format_version: 0.5 })).toEqual({ error: expect.stringContaining('whole number') });
  });
});
