import { describe, expect, it } from 'vitest';
import { modifyPipeline } from './modify';

const at = { x: 0, y: 0 };
/**
 * in (manual-trigger, message: text) ──▶ parse ──▶ to_fhir ──▶ ask (llm-prompt, openai) ──▶ out
 */
const base = {
  nodes: [
    { id: 'in', type: 'manual-trigger', config: { fields: { message: 'text' } }, position: at },
    { id: 'parse', type: 'hl7v2-parse', config: {}, position: at },
    { id: 'to_fhir', type: 'hl7v2-to-fhir', config: {}, position: at },
    { id: 'ask', type: 'llm-prompt', config: { model: 'openai/gpt-4o-mini' }, position: at },
    { id: 'out', type: 'pipeline-output', config: {}, position: at },
  ],
  connections: [
    { source: 'in', source_port: 'message', target: 'parse', target_port: 'text' },
    { source: 'parse', source_port: 'message', target: 'to_fhir', target_port: 'message' },
    { source: 'to_fhir', source_port: 'bundle', target: 'ask', target_port: 'input' },
    { source: 'ask', source_port: 'text', target: 'out', target_port: 'value' },
  ],
};

describe('modifying a pipeline from a request (offline)', () => {
  it('adds de-identification before the LLM step, on the connection into it, and stays valid', () => {
    const m = modifyPipeline(base, 'add de-identification before the LLM step');
    expect(m.validation.valid).toBe(true);
    expect(m.changes[0]).toMatch(/^added fhir_deidentify \(fhir-deidentify\) between to_fhir and ask/);
    expect(m.definition.connections).toEqual(expect.arrayContaining([
      expect.objectContaining({ source: 'to_fhir', source_port: 'bundle', target: 'fhir_deidentify' }),
      expect.objectContaining({ source: 'fhir_deidentify', target: 'ask', target_port: 'input' }),
    ]));
    expect(m.definition.connections.some((c) => c.source === 'to_fhir' && c.target === 'ask')).toBe(false);
  });

  it('adds HL7 de-identification where the data is still HL7, after parsing', () => {
    const m = modifyPipeline(base, 'insert de-identification after the parse step');
    expect(m.definition.nodes.map((n) => n.type)).toContain('hl7v2-deidentify');
    expect(m.validation.valid).toBe(true);
  });

  it('removes a step and reconnects around it when the types fit, and says what it could not do', () => {
    const m = modifyPipeline(base, 'remove the LLM step');
    expect(m.definition.nodes.map((n) => n.id)).not.toContain('ask');
    expect(m.definition.connections).toContainEqual(expect.objectContaining({ source: 'to_fhir', target: 'out' }));
    expect(m.validation.valid).toBe(true);
    expect(modifyPipeline(base, 'make it nicer').unresolved[0]).toMatch(/nothing in the request/);
  });
});
