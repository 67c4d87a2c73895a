import { z } from 'zod';
import { describeNode } from '../node-descriptor';
import { anyOf, digits } from '../node-plan';

const Config = z.object({
  model: z
    .string()
    .min(1)
    .default('clinflow/offline')
    .describe('Language model id (GET /api/llm-models); clinflow/offline is rule-based (no LLM) and always available'),
  max_sentences: z.number().int().min(1).max(50).default(3).describe('The most sentences the summary may have'),
  max_words: z.number().int().min(5).max(5000).optional().describe('The most words the summary may have (cut with … beyond)'),
  focus: z.string().max(500).default('').describe('What the summary should keep (e.g. "medications and plan"); empty: the main findings'),
});

export const summarize = describeNode({
  id: 'summarize',
  name: 'Summarize',
  category: 'ai',
  description: 'Summarizes a text (a clinical note, a report) with a language model, within a number of sentences or words.',
  version: '1.0.0',
  keywords: ['summarize', 'summary', 'abstract', 'llm', 'ai', 'clinical note', 'discharge summary', 'condense', 'tl;dr'],
  side_effect: 'read',
  documentation: [
    'Asks the language model `model` for a summary of the input text in at most `max_sentences` sentences (and',
    '`max_words` words, cut with `…` beyond them whatever the model answered). The input is a string, or an object',
    'with a `text` field (a DocumentReference-like note already decoded, a parsed HL7 NTE…). `usage` gives the',
    'tokens used and the latency (also logged).',
    '',
    'The default model `clinflow/offline` is rule-based, not an LLM: it keeps the sentences with the most frequent',
    'content words and clinical terms, in their order, and its summaries start with',
    '`[clinflow/offline: rule-based, no LLM]`.',
    '',
    '**Example**: "Patient admitted with chest pain. The weather was pleasant. Started aspirin 81 mg po daily."',
    'with `max_sentences` 2 gives `[clinflow/offline: rule-based, no LLM] Patient admitted with chest pain.',
    'Started aspirin 81 mg po daily.`',
  ].join('\n'),
  config: Config,
  example: { model: 'clinflow/offline', max_sentences: 2, max_words: 80, focus: 'diagnoses, medications and plan' },
  ui: { order: ['model', 'max_sentences', 'max_words', 'focus'] },
  plan: {
    edit: { cue: /\bsummar\w*/ },
    role: 'step',
    stage: 'model',
    input: 'text',
    output: 'summary',
    jobs: ['ai', 'summary'],
    takes: (f) => (f.type === 'text' && !['hl7', 'x12', 'csv'].includes(f.kind)) || f.kind === 'note',
    gives: () => ({ type: 'text', kind: 'answer' }),
    cue: anyOf(
      /\bsummari[sz](e|es|ed|ing)\b(?! agent)/,
      /\b(write|give|create|produce|generate|make)\w* (a |an )?([\w-]+ ){0,3}summary\b|\bcondens\w*|\btl;?dr\b/,
    ),
    configure: (a) => {
      const sentences = digits(/\b(\d{1,2})[- ]sentences?\b/, a.lower) ?? digits(/\bin (\d{1,2}) sentences?\b/, a.lower);
      if (sentences && sentences <= 50) a.config.max_sentences = sentences;
      const maxWords = digits(/\b(?:under|at most|max(?:imum)?|within|no more than) (\d{1,4}) words\b/, a.lower);
      if (maxWords && maxWords >= 5) a.config.max_words = maxWords;
      const focus = a.lower.match(/\bfocus(?:ing|ed)? on ([a-z ,]+?)(?:[.;]|$| then| and then)/);
      if (focus) a.config.focus = focus[1]!.trim();
      const said = ['summary', sentences && `${sentences} sentences`, maxWords && `≤ ${maxWords} words`, focus && `focus "${focus[1]!.trim()}"`];
      if (sentences || maxWords || focus) a.filled.push(said.filter(Boolean).join(' '));
    },
    outputKey: 'summary',
  },
  ports: () => ({
    inputs: [{ name: 'text', type: 'any', description: 'The text, or an object with a `text` field' }],
    outputs: [
      { name: 'summary', type: 'text', description: 'The summary' },
      { name: 'usage', type: 'json', description: '{model, input_tokens, output_tokens, total_tokens, latency_ms}' },
    ],
  }),
  errors: {
    TEXT_MISSING: 'the input is neither a string nor an object with a string `text`',
    MODEL_UNAVAILABLE: 'the model is unknown or its provider is not configured (the message names the env variable to set)',
    LLM_FAILED: 'the provider refused or failed the call (the message says why)',
  },
});
