import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEFLATE_FROM } from './stored-inputs';
import { recordText, withPayloads } from './stored-payloads';

const record = (inputs: Record<string, unknown>, outputs: Record<string, unknown>) => ({
  node_id: 'fhir',
  node_type: 'hl7v2-to-fhir',
  status: 'completed',
  inputs,
  outputs,
  logs: [{ level: 'info', message: 'converted', time: '2026-11-29T06:00:00.000Z' }],
  refs: null,
});

/** A bundle as a feed's conversion gives: many resources, much repeated structure. */
const bundle = {
  resourceType: 'Bundle',
  type: 'transaction',
  entry: Array.from({ length: 40 }, (_, i) => ({
    fullUrl: `urn:uuid:00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    resource: { resourceType: 'Observation', status: 'final', code: { text: `Result ${i} — é ✓ 𝄞` }, valueQuantity: { value: i, unit: 'mmol/L' } },
    request: { method: 'PUT', url: `Observation/obs-${i}` },
  })),
};

describe('a node record as stored', () => {
  it('large payloads go deflated, in well under their size, and come back as they were', () => {
    const r = record({ message: { control_id: 'MSG-1' } }, { bundle });
    const { text, bytes } = recordText(r);
    const row = JSON.parse(text) as { inputs: unknown; outputs: unknown; payloads_z: string; node_id: string; logs: unknown };
    // the other columns as they are; the payloads' columns empty
    expect(row).toMatchObject({ node_id: 'fhir', inputs: {}, outputs: {}, logs: r.logs });
    const z = Buffer.from(row.payloads_z, 'base64');
    const json = JSON.stringify({ inputs: r.inputs, outputs: r.outputs });
    expect(z.length).toBeLessThan(json.length / 4);
    expect(bytes).toBe(text.length - row.payloads_z.length + z.length);
    expect(bytes).toBeLessThan(json.length / 3);
    expect(JSON.parse(inflateRawSync(z).toString('utf8'))).toEqual({ inputs: r.inputs, outputs: r.outputs });
    // as a row comes back from the database: in place, and nothing left in payloadsZ
    const back = withPayloads({ nodeId: 'fhir', inputs: {}, outputs: {}, payloadsZ: new Uint8Array(z) });
    expect(back).toEqual({ nodeId: 'fhir', inputs: r.inputs, outputs: r.outputs, payloadsZ: null });
  });

  it("an output node's emitted value goes with its payloads, and comes back with them", () => {
    const r = { ...record({ value: bundle }, {}), node_id: 'out', node_type: 'pipeline-output', emit: { key: 'bundle', value: bundle } };
    const row = JSON.parse(recordText(r).text) as Record<string, unknown>;
    expect(row).toMatchObject({ node_id: 'out', inputs: {}, outputs: {} });
    expect(row.emit).toBeUndefined();
    const back = withPayloads({ inputs: {}, outputs: {}, emit: null as unknown, payloadsZ: Buffer.from(row.payloads_z as string, 'base64') });
    expect(back).toEqual({ inputs: { value: bundle }, outputs: {}, emit: { key: 'bundle', value: bundle }, payloadsZ: null });
    // small: in its column as before
    const small = JSON.parse(recordText({ ...record({ value: 1 }, {}), emit: { key: 'n', value: 1 } }).text);
    expect(small).toMatchObject({ inputs: { value: 1 }, emit: { key: 'n', value: 1 } });
  });

  it('small payloads stay JSON in their columns, and such a row is read as it is', () => {
    const small = record({ input: { name: 'Ada' } }, { output: { loud: 'ADA' } });
    expect(JSON.stringify(small).length).toBeLessThan(DEFLATE_FROM);
    const kept = recordText(small);
    expect(JSON.parse(kept.text)).toEqual({ ...small });
    expect(kept.bytes).toBe(kept.text.length);
    const row = { nodeId: 'x', inputs: { a: 1 }, outputs: {}, payloadsZ: null };
    expect(withPayloads(row)).toBe(row);
  });

  it('what jsonb refuses (NUL, lone surrogates) is replaced alike in either form', () => {
    const odd = 'a\u0000b\ud800c';
    const small = JSON.parse(recordText(record({ odd }, {})).text);
    expect(small.inputs.odd).toBe('a\ufffdb\ufffdc');
    const large = JSON.parse(recordText(record({ odd, bundle }, {})).text);
    const back = withPayloads({ inputs: {} as Record<string, unknown>, outputs: {}, payloadsZ: Buffer.from(large.payloads_z, 'base64') });
    expect(back.inputs.odd).toBe('a\ufffdb\ufffdc');
  });
});
