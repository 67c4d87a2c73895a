import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { languageModel } from '@/server/services/executions/node-services';
import { failure, runNode, testContext, testServices } from '../../../tests/support/engine/node-context';
import { summarizeNode as summarize } from './summarize.execute';

const withModels = () => testContext({ services: testServices({ languageModel }) });

describe('summarize', () => {
  it('works with its default config: the documented example', async () => {
    const text = 'Patient admitted with chest pain. The weather was pleasant. Started aspirin 81 mg po daily.';
    const r = await runNode(summarize, { max_sentences: 2 }, { text }, withModels());
    expect(r.outputs.summary).toBe('[clinflow/offline: rule-based, no LLM] Patient admitted with chest pain. Started aspirin 81 mg po daily.');
    expect(r.outputs.usage).toMatchObject({ model: 'clinflow/offline', output_tokens: 15 });
  });

  it('summarises a Synthea clinical note within max_words', async () => {
    const doc = JSON.parse(readFileSync('/work/shared/data/synthea-10/DocumentReference.000.ndjson', 'utf8').split('\n')[0]!);
    const text = Buffer.from(doc.content[0].attachment.data, 'base64').toString('utf8');
    const r = await runNode(summarize, summarize.example, { text: { text } }, withModels());
    const summary = r.outputs.summary as string;
    expect(summary.split(/\s+/).length).toBeLessThanOrEqual(80);
    expect(summary.length).toBeLessThan(text.length);
  });

  it('fails with TEXT_MISSING on a number', async () => {
    expect((await failure(runNode(summarize, {}, { text: 42 }, withModels()))).code).toBe('TEXT_MISSING');
  });
});
