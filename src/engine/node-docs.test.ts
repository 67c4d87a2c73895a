import { describe, expect, it } from 'vitest';
import { configSchema, fieldTitle } from './node-docs';
import { getNodeDescriptor } from './nodes/descriptors';

describe('config form labels', () => {
  it.each([
    ['skip_empty_lines', 'Skip empty lines'],
    ['timeout_ms', 'Timeout (ms)'],
    ['memory_mb', 'Memory (MB)'],
    ['on_invalid', 'On invalid'],
    ['url', 'URL'],
    ['resourceTypes', 'Resource types'],
  ])('%s reads as "%s"', (name, title) => {
    expect(fieldTitle(name)).toBe(title);
  });

  it('gives every field of the catalog a title, and keeps one a node sets', () => {
    const csv = configSchema(getNodeDescriptor('csv-parse')!).properties as Record<string, { title?: string }>;
    expect(csv.skip_empty_lines!.title).toBe('Skip empty lines');
    expect(csv.header!.title).toBe('Header');
  });
});
