import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { type Env, env as processEnv } from '@/env';
import { AppError } from '@/server/errors';
import { KNOWN_MODELS, type LanguageModelEntry, OFFLINE_ENTRY } from './catalog';
import { offlineModel } from './offline/model';

type AiEnv = Pick<
  Env,
  | 'OPENAI_API_KEY'
  | 'OPENAI_BASE_URL'
  | 'ANTHROPIC_API_KEY'
  | 'OPENAI_COMPATIBLE_BASE_URL'
  | 'OPENAI_COMPATIBLE_API_KEY'
  | 'OPENAI_COMPATIBLE_MODELS'
  | 'OPENAI_COMPATIBLE_NAME'
>;

const KEY_OF: Record<string, string> = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' };

/** `llama3.1:8b:131072` → id `llama3.1:8b`, context window 131072 (a trailing all-digit part is the window). */
function compatibleModels(e: AiEnv): LanguageModelEntry[] {
  return e.OPENAI_COMPATIBLE_MODELS.map((spec) => {
    const m = spec.match(/^(.+):(\d+)$/);
    const model = m ? m[1]! : spec;
    return {
      id: `${e.OPENAI_COMPATIBLE_NAME}/${model}`,
      provider: e.OPENAI_COMPATIBLE_NAME,
      name: `${model} (${e.OPENAI_COMPATIBLE_NAME})`,
      capabilities: ['chat', 'tools', 'structured-output', 'streaming'],
      context_window: m ? Number(m[2]) : 8192,
      pricing_tier: 'free',
      available: Boolean(e.OPENAI_COMPATIBLE_BASE_URL),
    };
  });
}

/** Every language model Clinflow knows, `available` when its provider is configured in env. */
export function listLanguageModels(e: AiEnv = processEnv): LanguageModelEntry[] {
  const configured = { openai: Boolean(e.OPENAI_API_KEY), anthropic: Boolean(e.ANTHROPIC_API_KEY) } as Record<string, boolean>;
  return [OFFLINE_ENTRY, ...KNOWN_MODELS.map((m) => ({ ...m, available: configured[m.provider] ?? false })), ...compatibleModels(e)];
}

/**
 * The model behind `id` (`provider/model`). Unknown ids and models whose provider is not configured are refused
 * with a 400 naming the env variable to set. `openai/<any>` and `anthropic/<any>` are accepted beyond the known
 * list once their key is set (new models appear faster than this list).
 */
export function getLanguageModel(id: string, e: AiEnv = processEnv): LanguageModelV4 {
  if (id === OFFLINE_ENTRY.id) return offlineModel();
  const slash = id.indexOf('/');
  const provider = slash > 0 ? id.slice(0, slash) : '';
  const model = id.slice(slash + 1);
  if (provider === 'openai' || provider === 'anthropic') {
    const key = provider === 'openai' ? e.OPENAI_API_KEY : e.ANTHROPIC_API_KEY;
    if (!key)
      throw new AppError('MODEL_UNAVAILABLE', `The model ${id} is not available: set ${KEY_OF[provider]} to use ${provider} models (or use clinflow/offline).`);
    if (!model) throw new AppError('MODEL_NOT_FOUND', `No model named in ${id}.`);
    return provider === 'openai'
      ? createOpenAI({ apiKey: key, ...(e.OPENAI_BASE_URL ? { baseURL: e.OPENAI_BASE_URL } : {}) }).chat(model)
      : createAnthropic({ apiKey: key })(model);
  }
  const compatible = compatibleModels(e).find((m) => m.id === id);
  if (compatible) {
    if (!e.OPENAI_COMPATIBLE_BASE_URL)
      throw new AppError('MODEL_UNAVAILABLE', `The model ${id} is not available: set OPENAI_COMPATIBLE_BASE_URL to the endpoint serving it.`);
    return createOpenAICompatible({
      name: e.OPENAI_COMPATIBLE_NAME,
      baseURL: e.OPENAI_COMPATIBLE_BASE_URL,
      ...(e.OPENAI_COMPATIBLE_API_KEY ? { apiKey: e.OPENAI_COMPATIBLE_API_KEY } : {}),
      includeUsage: true,
      supportsStructuredOutputs: true,
    }).chatModel(compatible.id.slice(e.OPENAI_COMPATIBLE_NAME.length + 1));
  }
  throw new AppError(
    'MODEL_NOT_FOUND',
    [
      `Unknown language model "${id}": use clinflow/offline, openai/… (OPENAI_API_KEY), anthropic/… (ANTHROPIC_API_KEY),`,
      `or list it in OPENAI_COMPATIBLE_MODELS with OPENAI_COMPATIBLE_BASE_URL. GET /api/llm-models lists them.`,
    ].join(' '),
  );
}
