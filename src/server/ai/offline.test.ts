import { readFileSync } from 'node:fs';
import type { LanguageModelV4FunctionTool } from '@ai-sdk/provider';
import { generateText, isStepCount, Output, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { extractClinical } from './offline/extract';
import { offlineModel } from './offline/model';

/** The first Synthea clinical note (a DocumentReference's base64 text). */
function syntheaNote(): string {
  const first = JSON.parse(readFileSync('/work/shared/data/synthea-10/DocumentReference.000.ndjson', 'utf8').split('\n')[0]!);
  return Buffer.from(first.content[0].attachment.data, 'base64').toString('utf8');
}

const note = [
  'Patient is a 67 year-old male admitted on 2024-03-12 with chest pain and shortness of breath.',
  'History of hypertension and type 2 diabetes mellitus (ICD-10 E11.9). Denies fever.',
  'BP 150/95 mmHg, glucose 182 mg/dL, HbA1c 8.1 %. LOINC 4548-4 ordered.',
  'Started metformin 500 mg po bid and lisinopril 10 mg po daily. The weather was pleasant.',
  'Plan: follow-up in 2 weeks with cardiology for stress test.',
].join(' ');

describe('clinflow/offline through the AI SDK', () => {
  it('summarises with generateText, labelled as rule-based, usage counted in words', async () => {
    const r = await generateText({ model: offlineModel(), instructions: 'Summarize in 2 sentences.', prompt: note });
    expect(r.text.startsWith('[clinflow/offline: rule-based, no LLM]')).toBe(true);
    expect(r.text).not.toContain('weather');
    expect(r.text).toContain('chest pain');
    expect(r.finishReason).toBe('stop');
    expect(r.usage.outputTokens).toBe(r.text.split(/\s+/).length);
    expect(r.usage.inputTokens).toBeGreaterThan(50);
  });

  it('reads a prompt\'s lead-in line ("Extract … from:" and a blank line) as an instruction, not as content', async () => {
    const summary = await generateText({ model: offlineModel(), prompt: 'Summarize this clinical text:\n\nBP 150/95. Started lisinopril 10 mg daily.' });
    expect(summary.text).toBe('[clinflow/offline: rule-based, no LLM] BP 150/95. Started lisinopril 10 mg daily.');
    const list = await generateText({ model: offlineModel(), prompt: 'Extract the medications from:\n\nStarted lisinopril 10 mg po daily.' });
    expect(list.text).toContain('- Medication: lisinopril 10 mg po daily');
  });

  it('streams the answer delta by delta, each a word, joining to the generated text', async () => {
    const deltas: string[] = [];
    const s = streamText({ model: offlineModel(), prompt: note });
    for await (const d of s.textStream) deltas.push(d);
    const whole = (await generateText({ model: offlineModel(), prompt: note })).text;
    expect(deltas.length).toBe(whole.split(/\s+/).length);
    expect(deltas.join('')).toBe(whole);
    expect(deltas.every((d) => d.trim().split(/\s+/).length === 1)).toBe(true);
  });

  it('fills a zod schema from what it extracted (structured output)', async () => {
    const schema = z.object({
      summary: z.string(),
      medications: z.array(z.object({ name: z.string(), dose: z.string(), route: z.string(), frequency: z.string() })),
      conditions: z.array(z.object({ name: z.string() })),
      codes: z.array(z.object({ system: z.enum(['ICD-10', 'LOINC', 'SNOMED', 'RxNorm']), code: z.string() })),
    });
    const r = await generateText({ model: offlineModel(), prompt: note, output: Output.object({ schema }) });
    expect(r.output.medications).toEqual([
      { name: 'metformin', dose: '500 mg', route: 'po', frequency: 'bid' },
      { name: 'lisinopril', dose: '10 mg', route: 'po', frequency: 'daily' },
    ]);
    expect(r.output.conditions.map((c) => c.name)).toEqual(
      expect.arrayContaining(['chest pain', 'shortness of breath', 'hypertension', 'type 2 diabetes mellitus']),
    );
    expect(r.output.conditions.map((c) => c.name)).not.toContain('fever');
    expect(r.output.codes).toEqual([
      { system: 'LOINC', code: '4548-4' },
      { system: 'ICD-10', code: 'E11.9' },
    ]);
    expect(r.text).not.toContain('clinflow/offline');
  });

  it('calls a tool the message needs, then answers from its result (stopWhen)', async () => {
    const seen: unknown[] = [];
    const r = await generateText({
      model: offlineModel(),
      prompt: 'Look up the latest lab results for patient 12345',
      tools: {
        get_lab_results: tool({
          description: 'Latest laboratory results of a patient',
          inputSchema: z.object({ patient_id: z.string() }),
          execute: async (input) => {
            seen.push(input);
            return { potassium: '4.1 mmol/L' };
          },
        }),
        get_weather: tool({ description: 'Weather forecast for a city', inputSchema: z.object({ city: z.string() }), execute: async () => 'sunny' }),
      },
      stopWhen: isStepCount(3),
    });
    expect(seen).toEqual([{ patient_id: '12345' }]);
    expect(r.steps.map((s) => s.finishReason)).toEqual(['tool-calls', 'stop']);
    expect(r.text).toBe('[clinflow/offline: rule-based, no LLM] get_lab_results returned:\n- potassium: 4.1 mmol/L');
  });
});

describe('clinflow/offline as a LanguageModelV4', () => {
  const user = (text: string) => [{ role: 'user' as const, content: [{ type: 'text' as const, text }] }];

  it('reports finishReason {unified, raw} and word-counted usage; cuts free text at maxOutputTokens', async () => {
    const r = await offlineModel().doGenerate({ prompt: user(note), maxOutputTokens: 5 });
    expect(r.content).toEqual([
      { type: 'reasoning', text: 'Summarizing by sentence scoring: keeping up to 3 sentences with the most clinical content.' },
      { type: 'text', text: '[clinflow/offline: rule-based, no LLM] Patient' },
    ]);
    expect(r.finishReason).toEqual({ unified: 'length', raw: 'length' });
    expect(r.usage.outputTokens).toEqual({ total: 5, text: 5, reasoning: 0 });
  });

  it('answers JSON without a schema with everything it extracted, unlabelled', async () => {
    const r = await offlineModel().doGenerate({ prompt: user(note), responseFormat: { type: 'json' } });
    const parsed = JSON.parse((r.content.find((p) => p.type === 'text') as { text: string }).text);
    expect(Object.keys(parsed)).toEqual(['summary', 'medications', 'conditions', 'dates', 'codes']);
    expect(parsed.dates).toEqual(['2024-03-12']);
  });

  it('calls the tool a message names, streamed as a tool-call part', async () => {
    const tools: LanguageModelV4FunctionTool[] = [
      {
        type: 'function' as const,
        name: 'search_notes',
        description: 'Full-text search of notes',
        inputSchema: { type: 'object' as const, properties: { query: { type: 'string' as const } } },
      },
      {
        type: 'function' as const,
        name: 'get_allergies',
        description: 'Allergies of a patient',
        inputSchema: { type: 'object' as const, properties: { patient_id: { type: 'string' as const } } },
      },
    ];
    const { stream } = await offlineModel().doStream({ prompt: user('Use search_notes to find "insulin pump"'), tools });
    const parts: Array<{ type: string }> = [];
    const reader = stream.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
    expect(parts.find((p) => p.type === 'tool-call')).toMatchObject({ toolName: 'search_notes', input: '{"query":"insulin pump"}' });
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' } });
  });
});

describe('extraction on real clinical text', () => {
  it('finds the medications and conditions of a Synthea note', () => {
    const ex = extractClinical(syntheaNote());
    expect(ex.medications.map((m) => `${m.name} ${m.dose}${m.route ? ` ${m.route}` : ''}`)).toEqual([
      'acetaminophen 325 mg oral',
      'paclitaxel 100 mg',
      'nitrofurantoin 5 mg/ml oral',
      'phenazopyridine hydrochloride 100 mg oral',
      'cisplatin 50 mg',
    ]);
    expect(ex.conditions.map((c) => c.name)).toEqual(expect.arrayContaining(['cough', 'bronchitis', 'urinary tract infection', 'sinusitis']));
    expect(ex.dates).toContain('1987-11-19');
  });

  it('reads the NTE remark of an HL7 lab message', () => {
    const msg = readFileSync('/work/shared/data/hl7v2/messages/ADT-A60-01.hl7', 'utf8');
    const nte = msg
      .split(/\r\n|\r|\n/)
      .find((l) => l.startsWith('NTE'))!
      .split('|')[3]!;
    expect(nte).toBe('Allergy to peanuts observed.');
    expect(extractClinical(`${nte} Patient denies asthma.`).conditions).toEqual([{ name: 'asthma', negated: true, text: 'Patient denies asthma.' }]);
  });
});

describe('offline tool arguments', () => {
  const lookup = {
    type: 'function',
    name: 'terminology_lookup',
    description: 'Look up the display name of a code',
    inputSchema: { type: 'object', properties: { system: { type: 'string' }, code: { type: 'string' } }, required: ['system', 'code'] },
  } as LanguageModelV4FunctionTool;

  it('are what it extracted from a longer note, never the whole sentence', async () => {
    const { toolArguments } = await import('./offline/tools');
    const note = 'Admitted with chest pain. History of hypertension (ICD-10 I10). Started aspirin 81 mg daily. Please look up the diagnosis code.';
    expect(toolArguments(note, lookup)).toEqual({ system: 'ICD-10', code: 'I10' });
    // no code in the note: the first condition it found
    expect(toolArguments('Seen today for type 2 diabetes mellitus, on metformin 500 mg twice daily; doing well, no complaints.', lookup)).toMatchObject({
      code: 'type 2 diabetes mellitus',
    });
  });
});
