import { generateText } from 'ai';
import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { llmFailure, recordUsage } from './llm-prompt.usage';
import { summarize } from './summarize';

/** The text of the input: a string, or an object's `text`. */
export function inputText(v: unknown, code = 'TEXT_MISSING'): string {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && typeof (v as { text?: unknown }).text === 'string') return (v as { text: string }).text;
  throw new NodeError(code, 'Expected a text, or an object with a string "text" field.');
}

export const summarizeNode = implementNode(summarize, {
  async execute(ctx, inputs, config) {
    const text = inputText(inputs.text);
    const model = ctx.services.languageModel(config.model);
    const limits = `in at most ${config.max_sentences} sentences${config.max_words ? ` and ${config.max_words} words` : ''}`;
    const instructions = [
      `Summarize the clinical text ${limits}${config.focus ? `, keeping ${config.focus}` : ''}.`,
      `Answer with the summary only; do not add facts that are not in the text.`,
    ].join(' ');
    const started = performance.now();
    try {
      const r = await generateText({ model, instructions, prompt: text, abortSignal: ctx.signal, maxRetries: 1, temperature: 0 });
      const words = r.text.trim().split(/\s+/);
      const summary = config.max_words && words.length > config.max_words ? `${words.slice(0, config.max_words).join(' ')}…` : r.text.trim();
      return { outputs: { summary, usage: recordUsage(ctx, config.model, r.usage, started) } };
    } catch (e) {
      llmFailure(e);
    }
  },
});
