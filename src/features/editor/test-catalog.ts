import type { CatalogEntry } from './types';

/** Tiny catalog entries for the editor's unit tests. */
export function entry(id: string, over: Partial<CatalogEntry> = {}): CatalogEntry {
  return {
    id,
    name: id,
    category: 'data',
    description: '',
    version: '1.0.0',
    keywords: [],
    side_effect: 'none',
    trigger: false,
    inputs: [],
    outputs: [],
    config_schema: { type: 'object', properties: {} },
    example: {},
    errors: [],
    documentation: '',
    ...over,
  };
}

export const CATALOG: CatalogEntry[] = [
  entry('manual-trigger', {
    category: 'control',
    trigger: true,
    outputs: [{ name: 'event', type: 'trigger-event' }],
    config_schema: { type: 'object', properties: { fields: { type: 'object', default: {} } } },
  }),
  entry('csv-parse', { inputs: [{ name: 'text', type: 'text' }], outputs: [{ name: 'rows', type: 'json' }] }),
  entry('jsonata-transform', { inputs: [{ name: 'input', type: 'any' }], outputs: [{ name: 'output', type: 'json' }] }),
  entry('switch', { category: 'control' }),
  entry('merge', {
    category: 'control',
    inputs: [
      { name: 'in1', type: 'any', optional: true },
      { name: 'in2', type: 'any', optional: true },
    ],
    outputs: [{ name: 'merged', type: 'json' }],
  }),
  entry('pipeline-output', { category: 'output', inputs: [{ name: 'value', type: 'any' }] }),
];

export const CATALOG_BY_ID = Object.fromEntries(CATALOG.map((e) => [e.id, e]));
