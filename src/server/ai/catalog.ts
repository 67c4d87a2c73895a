/** A language model entry (DESIGN.md §3 "Language models"). */
export interface LanguageModelEntry {
  id: string;
  provider: string;
  name: string;
  capabilities: Array<'chat' | 'tools' | 'structured-output' | 'vision' | 'streaming'>;
  context_window: number;
  pricing_tier: 'free' | 'low' | 'medium' | 'high';
  available: boolean;
}

type Known = Omit<LanguageModelEntry, 'available'>;
const FULL = ['chat', 'tools', 'structured-output', 'vision', 'streaming'] as const;

/** The hosted models Clinflow knows, with their published context windows (as of 2026). */
export const KNOWN_MODELS: Known[] = [
  { id: 'openai/gpt-4o-mini', provider: 'openai', name: 'GPT-4o mini', capabilities: [...FULL], context_window: 128_000, pricing_tier: 'low' },
  { id: 'openai/gpt-4o', provider: 'openai', name: 'GPT-4o', capabilities: [...FULL], context_window: 128_000, pricing_tier: 'medium' },
  { id: 'openai/gpt-4.1-mini', provider: 'openai', name: 'GPT-4.1 mini', capabilities: [...FULL], context_window: 1_047_576, pricing_tier: 'low' },
  { id: 'openai/gpt-4.1', provider: 'openai', name: 'GPT-4.1', capabilities: [...FULL], context_window: 1_047_576, pricing_tier: 'medium' },
  { id: 'openai/o4-mini', provider: 'openai', name: 'o4-mini (reasoning)', capabilities: [...FULL], context_window: 200_000, pricing_tier: 'medium' },
  {
    id: 'anthropic/claude-3-5-haiku-latest',
    provider: 'anthropic',
    name: 'Claude 3.5 Haiku',
    capabilities: [...FULL],
    context_window: 200_000,
    pricing_tier: 'low',
  },
  {
    id: 'anthropic/claude-sonnet-4-0',
    provider: 'anthropic',
    name: 'Claude Sonnet 4',
    capabilities: [...FULL],
    context_window: 200_000,
    pricing_tier: 'medium',
  },
  { id: 'anthropic/claude-opus-4-0', provider: 'anthropic', name: 'Claude Opus 4', capabilities: [...FULL], context_window: 200_000, pricing_tier: 'high' },
];

export const OFFLINE_ENTRY: LanguageModelEntry = {
  id: 'clinflow/offline',
  provider: 'clinflow',
  name: 'Clinflow offline — rule-based offline model (no LLM)',
  capabilities: ['chat', 'tools', 'structured-output', 'streaming'],
  context_window: 1_000_000,
  pricing_tier: 'free',
  available: true,
};

export const DEFAULT_MODEL = OFFLINE_ENTRY.id;
