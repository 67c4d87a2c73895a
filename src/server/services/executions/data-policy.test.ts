import { describe, expect, it } from 'vitest';
import { emptyRun } from '@/engine/execute-node';
import { appliedPolicy, keepRecord, payloadKeeping, payloadState } from './data-policy';

/** A finished node record with data on both sides. */
const record = (node_type: string, status: 'completed' | 'failed' = 'completed') => ({
  ...emptyRun(status),
  node_id: 'n',
  node_type,
  inputs: { input: { mrn: '12345' } },
  outputs: { output: { mrn: '12345' } },
  emit: { key: 'out', value: { mrn: '12345' } },
});

describe('what a run keeps', () => {
  it('full keeps all; errors all of a failed run only; metadata nothing at the end', () => {
    const at = (policy: 'full' | 'errors' | 'metadata') => ['running', 'completed', 'failed', 'cancelled'].map((s) => payloadKeeping(policy, s as 'running'));
    expect(at('full')).toEqual(['all', 'all', 'all', 'all']);
    expect(at('errors')).toEqual(['resume', 'none', 'all', 'none']);
    expect(at('metadata')).toEqual(['resume', 'none', 'none', 'none']);
    expect(payloadState('errors', 'failed')).toBe('kept');
    expect(payloadState('errors', 'completed')).toBe('not_kept');
  });

  it('test-mode runs and step sessions keep everything whatever the pipeline says', () => {
    expect(appliedPolicy('metadata', { testMode: true, trigger: 'api' })).toBe('full');
    expect(appliedPolicy('metadata', { testMode: false, trigger: 'step' })).toBe('full');
    expect(appliedPolicy('errors', { testMode: false, trigger: 'mllp' })).toBe('errors');
  });

  it('mid-run, only a write node keeps its outputs (what a resumed run carries); at the end none keeps a value', () => {
    expect(keepRecord(record('jsonata-transform'), 'resume')).toMatchObject({ inputs: {}, outputs: {} });
    expect(keepRecord(record('jsonata-transform'), 'resume').emit).toBeUndefined();
    const write = keepRecord(record('fhir-write'), 'resume');
    expect(write).toMatchObject({ inputs: {}, outputs: { output: { mrn: '12345' } }, emit: { key: 'out' } });
    expect(JSON.stringify(keepRecord(record('fhir-write'), 'none'))).not.toContain('12345');
    expect(keepRecord(record('fhir-write', 'failed'), 'resume').outputs).toEqual({});
    const kept = record('jsonata-transform');
    expect(keepRecord(kept, 'all')).toBe(kept);
  });
});
