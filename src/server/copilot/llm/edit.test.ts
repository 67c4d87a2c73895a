import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiServer } from '../../../../tests/support/openai-server';
import { BASES } from '../../../../tests/eval/copilot/edit-fixtures';
import { editWithModel } from './edit';

const adt = () => structuredClone(BASES.adt.definition);
const node = (id: string, type: string, config: object = {}) => ({ id, type, config: JSON.stringify(config) });
const keep = [
  node('start', 'manual-trigger', { fields: { message: 'text' } }),
  node('parse', 'hl7v2-parse'),
  node('to_fhir', 'hl7v2-to-fhir'),
  node('out', 'pipeline-output', { key: 'result' }),
];
const link = (s: string, sp: string, t: string, tp: string) => ({ source: s, source_port: sp, target: t, target_port: tp });
const base = [link('start', 'message', 'parse', 'text'), link('parse', 'message', 'to_fhir', 'message')];

// the model's part: a first answer that does not fit by port types (HL7 v2 into the FHIR validator's output side), then a right one
const wrong = {
  name: 'ADT',
  reasoning: ['validate before the output'],
  nodes: [...keep, node('validate', 'fhir-validate')],
  connections: [...base, link('to_fhir', 'bundle', 'validate', 'resource'), link('validate', 'bundle', 'out', 'value')],
};
const right = { ...wrong, connections: [...base, link('to_fhir', 'bundle', 'validate', 'resource'), link('validate', 'valid', 'out', 'value')] };

describe('editing with a language model', () => {
  let llm: Awaited<ReturnType<typeof startOpenAiServer>>;
  let stubborn: Awaited<ReturnType<typeof startOpenAiServer>>;
  beforeAll(async () => {
    llm = await startOpenAiServer((_body, nth) => JSON.stringify(nth === 1 ? wrong : right));
    stubborn = await startOpenAiServer(() => JSON.stringify(wrong));
  });
  afterAll(async () => {
    await llm.close();
    await stubborn.close();
  });
  const model = (url: string) => createOpenAICompatible({ name: 'test', baseURL: url, supportsStructuredOutputs: true }).chatModel('editor');

  it("sends the validator's findings back to the model and shows its corrected edit, kept nodes where they were", async () => {
    const r = await editWithModel(model(llm.url), 'test/editor', adt(), 'Validate the FHIR bundle before the output.');
    expect(r.attempts).toBe(2);
    const second = llm.seen.filter((s) => s.body.response_format).at(1)!;
    expect(JSON.stringify(second.body.messages.at(-1))).toContain('validate');
    expect(JSON.stringify(second.body.messages.at(-1))).toMatch(/PORT|port|bundle/);
    expect(r.validation.valid).toBe(true);
    expect(r.diff.added).toEqual(['validate']);
    expect(r.changes[0]).toMatch(/^added validate \(FHIR validate\) after to_fhir, feeding out/);
    expect(r.definition.nodes.find((n) => n.id === 'parse')!.position).toEqual(adt().nodes.find((n) => n.id === 'parse')!.position);
  });

  it('answers with the rule-based edit when the model never gets it valid, saying so', async () => {
    const r = await editWithModel(model(stubborn.url), 'test/editor', adt(), 'Validate the FHIR bundle between to_fhir and out.');
    expect(r.attempts).toBe(3);
    expect(r.reasoning.at(-1)).toMatch(/still not valid: the rule-based planner's edit is shown instead/);
    expect(r.validation.valid).toBe(true);
    expect(r.definition.nodes.map((n) => n.type)).toContain('fhir-validate');
  });
});
