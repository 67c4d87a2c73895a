import { describe, expect, inject, it } from 'vitest';
import { client, expectError } from '../support/client';

describe('language models over REST', () => {
  const target = inject('targets')[0]!;
  const api = client(target.url, target.orgA);

  it('lists the offline model as available and OpenAI as unavailable without its key', async () => {
    const r = await api.get('/api/llm-models');
    expect(r.status).toBe(200);
    const byId = new Map(r.body.models.map((m: { id: string }) => [m.id, m]));
    expect(byId.get('clinflow/offline')).toEqual({
      id: 'clinflow/offline',
      provider: 'clinflow',
      name: 'Clinflow offline — rule-based offline model (no LLM)',
      capabilities: ['chat', 'tools', 'structured-output', 'streaming'],
      context_window: 1_000_000,
      pricing_tier: 'free',
      available: true,
    });
    expect(byId.get('openai/gpt-4o-mini')).toMatchObject({ provider: 'openai', available: false, pricing_tier: 'low', context_window: 128_000 });
    expect(r.body.models.filter((m: { provider: string }) => m.provider === 'anthropic').length).toBeGreaterThan(0);
  });

  it('wants a key', async () => {
    expectError(await client(target.url, { ...target.orgA, key: 'cfk_not_a_real_key_at_all' }).get('/api/llm-models'), 401, 'UNAUTHENTICATED');
  });
});
