import { describe, expect, it } from 'vitest';
import { BASES } from '../../../../tests/eval/copilot/edit-fixtures';
import { explainFlow, explainValidity } from './explain';
import { editPipeline } from './index';
import { readEdits } from './intent';

const at = { x: 0, y: 0 };
/** in (manual-trigger, message: text) ──▶ parse ──▶ to_fhir ──▶ ask (llm-prompt, openai) ──▶ out */
const base = {
  nodes: [
    { id: 'in', type: 'manual-trigger', config: { fields: { message: 'text' } }, position: at },
    { id: 'parse', type: 'hl7v2-parse', config: {}, position: { x: 260, y: 0 } },
    { id: 'to_fhir', type: 'hl7v2-to-fhir', config: {}, position: { x: 520, y: 0 } },
    { id: 'ask', type: 'llm-prompt', config: { model: 'openai/gpt-4o-mini' }, position: { x: 780, y: 0 } },
    { id: 'out', type: 'pipeline-output', config: {}, position: { x: 1040, y: 0 } },
  ],
  connections: [
    { source: 'in', source_port: 'message', target: 'parse', target_port: 'text' },
    { source: 'parse', source_port: 'message', target: 'to_fhir', target_port: 'message' },
    { source: 'to_fhir', source_port: 'bundle', target: 'ask', target_port: 'input' },
    { source: 'ask', source_port: 'text', target: 'out', target_port: 'value' },
  ],
};
const links = (d: { connections: { source: string; target: string }[] }) => d.connections.map((c) => `${c.source}>${c.target}`).sort();
const adt = () => structuredClone(BASES.adt.definition);

describe('reading an edit request', () => {
  it('makes one change of each clause, keeping "once …" with the clause it qualifies', () => {
    const ops = readEdits('Validate the FHIR bundle and then write it to the FHIR server instead of returning it; retry the write four times.');
    expect(ops.map((o) => o.kind)).toEqual(['place', 'replace', 'retry']);
    expect(ops[2]).toMatchObject({ attempts: 4 });
    expect(readEdits('Once the message is parsed, strip the patient identifiers out of it.')).toMatchObject([
      { kind: 'place', anchor: { rel: 'after', a: 'the message is parsed' } },
    ]);
  });
});

describe('editing a pipeline as it is', () => {
  it('adds de-identification on the connection into the LLM step (FHIR there), rewired, and stays valid', () => {
    const m = editPipeline(base, 'add de-identification before the LLM step');
    expect(m.validation.valid).toBe(true);
    expect(m.changes.at(-1)).toMatch(/^added deidentify \(FHIR de-identify\) between to_fhir and ask/);
    expect(links(m.definition)).toEqual(['deidentify>ask', 'in>parse', 'parse>to_fhir', 'to_fhir>deidentify', 'ask>out'].sort());
    expect(m.diff).toMatchObject({ added: ['deidentify'], removed: [], rewired: ['to_fhir', 'ask'] });
    // laid out where a person would draw it: after to_fhir, the nodes after it moved right
    const pos = (id: string) => m.definition.nodes.find((n) => n.id === id)!.position.x;
    expect(pos('deidentify')).toBe(780);
    expect(pos('ask')).toBe(1040);
  });

  it('picks the de-identification that fits the data: HL7 v2 right after parsing', () => {
    const m = editPipeline(base, 'insert de-identification after the parse step');
    expect(m.definition.nodes.map((n) => n.type)).toContain('hl7v2-deidentify');
    expect(links(m.definition)).toContain('parse>deidentify');
    expect(m.validation.valid).toBe(true);
  });

  it('removes a step reconnecting around it; refuses in words one whose neighbours would not fit, changing nothing', () => {
    const m = editPipeline(base, 'remove the LLM step');
    expect(m.definition.nodes.map((n) => n.id)).not.toContain('ask');
    expect(links(m.definition)).toContain('to_fhir>out');
    const refused = editPipeline(adt(), 'Remove the parse step.');
    expect(refused.changes).toEqual([]);
    expect(refused.unresolved[0]).toMatch(/to_fhir\.message takes hl7v2-message, and start gives HL7 v2 \(text\)/);
    expect(refused.definition).toEqual(adt());
    expect(editPipeline(base, 'make it nicer').unresolved[0]).toMatch(/names no step|could not tell|nothing in/);
  });

  it('replaces the trigger: a webhook body reaches the parser as text', () => {
    const m = editPipeline(adt(), 'Start this from a webhook instead.');
    expect(m.validation.valid).toBe(true);
    expect(m.definition.nodes.map((n) => n.type)).not.toContain('manual-trigger');
    expect(m.definition.connections.find((c) => c.target === 'parse')?.source).not.toBe('webhook');
    expect(m.changes.at(-1)).toMatch(/replaced the trigger start/);
    const schedule = editPipeline(adt(), 'Run it every night at 2am instead.');
    expect(schedule.unresolved[0]).toMatch(/a schedule starts the pipeline with only the time/);
  });

  it("adds a filter with the sentence's test, a configured step, and several changes in one request", () => {
    const f = editPipeline(structuredClone(BASES.patients.definition), 'Only keep female patients, then extract their MRN with FHIRPath.');
    expect(f.validation.valid).toBe(true);
    expect(f.definition.nodes.find((n) => n.type === 'filter')?.config.expression).toBe('gender = "female"');
    const extract = f.definition.nodes.find((n) => n.type === 'fhirpath-extract')!;
    expect(extract.config).toMatchObject({ expressions: { mrn: "identifier.where(type.coding.code = 'MR').value" } });
    const write = editPipeline(adt(), 'Send the result to the FHIR server rather than returning it.', { connectors: [{ name: 'EHR', type: 'fhir' }] });
    expect(write.definition.nodes.find((n) => n.type === 'fhir-write')?.config).toMatchObject({ connector: 'EHR', operation: 'transaction' });
    expect(links(write.definition)).not.toContain('to_fhir>out');
  });

  it("makes the listener's ACK wait for each run when asked, says a feed keeps its order already, and reads no order into other sentences", () => {
    const r = editPipeline(structuredClone(BASES.oru_write.definition), 'Acknowledge messages once their run ended, in order.');
    expect(r.validation.valid).toBe(true);
    expect(r.definition.nodes.find((n) => n.id === 'listener')?.config).toEqual({ port: 2575, ack_mode: 'completed' });
    expect(r.changes.join(' ')).toMatch(/listener.*ack_mode completed/);
    const again = editPipeline(r.definition, 'Acknowledge each message only once it has been processed.');
    expect(again.changes).toEqual([]);
    expect(again.unresolved.join(' ')).toMatch(/already acknowledges each message once its run ended/);
    const order = editPipeline(structuredClone(BASES.oru_write.definition), "Keep the feed's messages in order.");
    expect(order.changes).toEqual([]);
    expect(order.unresolved.join(' ')).toMatch(/listener \(MLLP listener trigger\) already keeps the order: each run of a sender's messages starts once/);
    expect(editPipeline(adt(), 'Keep the messages in order.').unresolved.join(' ')).toMatch(/no MLLP listener/);
    for (const other of ['Add validation in order to catch bad bundles.', 'Sort the patients in order of birth date.', 'Retry the FHIR write 5 times.'])
      expect(readEdits(other).map((o) => o.kind)).not.toContain('order');
  });

  it("keeps each patient's order instead of each connection's when asked, once", () => {
    const r = editPipeline(structuredClone(BASES.oru_write.definition), "Keep the order per patient so that different patients' messages run in parallel.");
    expect(r.validation.valid).toBe(true);
    expect(r.definition.nodes.find((n) => n.id === 'listener')?.config).toMatchObject({ order: 'patient' });
    expect(r.changes.join(' ')).toMatch(/listener.*order patient/);
    const again = editPipeline(r.definition, 'Run messages of different patients side by side.');
    expect(again.changes).toEqual([]);
    expect(again.unresolved.join(' ')).toMatch(/already keeps the order per patient/);
    expect(readEdits('Sort the patients in order of birth date.').map((o) => o.kind)).not.toContain('order');
  });

  it('moves a step, and sets a retry on the write it names', () => {
    const m = editPipeline(structuredClone(BASES.fhir_research.definition), 'Do the FHIRPath extraction after the de-identification.');
    expect(links(m.definition)).toEqual(['deidentify>extract', 'extract>out', 'start>deidentify']);
    const r = editPipeline(structuredClone(BASES.oru_write.definition), 'Retry the FHIR write 5 times if it fails.');
    expect(r.definition.nodes.find((n) => n.id === 'write')?.settings?.retry?.max_attempts).toBe(5);
  });
});

describe('explaining a pipeline from its descriptors', () => {
  it('says what happens to a message node by node, and why the validator accepts it', () => {
    const flow = explainFlow(adt());
    expect(flow).toMatch(/^It starts at \*\*start\*\* \(Manual trigger\)/);
    expect(flow).toContain('1. **parse** (HL7 v2 parse) takes HL7 v2 (text) from start.');
    expect(flow.indexOf('**parse**')).toBeLessThan(flow.indexOf('**to_fhir**'));
    const why = explainValidity(adt(), { valid: true, errors: [], warnings: [] });
    expect(why).toContain('start.message (text) → parse.text (text)');
    expect(why).toContain('parse.message (hl7v2-message) → to_fhir.message (hl7v2-message)');
  });
});
