import { generateText, jsonSchema, NoObjectGeneratedError, Output } from 'ai';
import type { JSONSchema7 } from '@ai-sdk/provider';
import { compileSchema, toIssue } from '../lib/json-schema';
import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { llmPrompt } from './llm-prompt';
import { llmFailure, recordUsage } from './llm-prompt.usage';

const show = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/** `{{input}}` is the whole input; `{{a.b.0}}` a field of it by dotted path (missing fields read as empty). */
export function fillTemplate(template: string, input: unknown): string {
  return template.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (_m, path: string) => {
    if (path === 'input') return show(input);
    const value = path
      .replace(/^input\./, '')
      .split('.')
      .reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), input);
    return show(value);
  });
}

export const llmPromptNode = implementNode(llmPrompt, {
  async execute(ctx, inputs, config) {
    const model = ctx.services.languageModel(config.model);
    const prompt = fillTemplate(config.prompt, inputs.input);
    const started = performance.now();
    const common = {
      model,
      prompt,
      maxOutputTokens: config.max_tokens,
      abortSignal: ctx.signal,
      maxRetries: 1,
      ...(config.instructions ? { instructions: config.instructions } : {}),
      ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
    };
    try {
      if (config.output_schema) {
        const validate = compileSchema(config.output_schema);
        // Checked with the same validator as json-schema-validate: the AI SDK passes a bare JSON Schema through unchecked.
        // output_schema was checked as a JSON Schema with the node's config
        const schema = jsonSchema<Record<string, unknown>>(config.output_schema as JSONSchema7, {
          validate: (value) =>
            validate(value)
              ? { success: true, value: value as Record<string, unknown> }
              : {
                  success: false,
                  error: new Error(
                    (validate.errors ?? [])
                      .map(toIssue)
                      .map((i) => `${i.path || '/'}: ${i.message}`)
                      .join('; '),
                  ),
                },
        });
        const r = await generateText({ ...common, output: Output.object({ schema }) });
        return { outputs: { object: r.output, usage: recordUsage(ctx, config.model, r.usage, started) } };
      }
      const r = await generateText(common);
      return { outputs: { text: r.text, usage: recordUsage(ctx, config.model, r.usage, started) } };
    } catch (e) {
      if (NoObjectGeneratedError.isInstance(e))
        throw new NodeError(
          'LLM_OUTPUT_INVALID',
          `The answer is not an object valid against output_schema: ${(e.cause as Error | undefined)?.message ?? e.message}`.slice(0, 1000),
        );
      llmFailure(e);
    }
  },
});
