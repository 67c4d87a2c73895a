import type { ModelMessage } from 'ai';
import type { messages } from '@/server/db/schema';

type MessageRow = typeof messages.$inferSelect;

/** A rough token count (about 4 characters a token for English text; counted high on purpose). */
export const estimateTokens = (text: string) => Math.ceil(text.length / 3.5);

/**
 * The conversation so far as model messages, oldest dropped first (a user message with its answer) until it fits
 * in `budget` tokens. Only answered turns count: a failed or interrupted answer is left out with its question.
 */
export function historyMessages(rows: MessageRow[], budget: number): ModelMessage[] {
  const pairs: ModelMessage[][] = [];
  for (let i = 0; i < rows.length; i++) {
    const q = rows[i]!;
    const a = rows[i + 1];
    if (q.role !== 'user') continue;
    if (a?.role === 'assistant' && a.status === 'complete') {
      pairs.push([
        { role: 'user', content: q.content },
        { role: 'assistant', content: a.content },
      ]);
      i++;
    }
  }
  const kept: ModelMessage[][] = [];
  let used = 0;
  for (let i = pairs.length - 1; i >= 0; i--) {
    const cost = pairs[i]!.reduce((n, m) => n + estimateTokens(String(m.content)), 0);
    if (used + cost > budget) break;
    used += cost;
    kept.unshift(pairs[i]!);
  }
  return kept.flat();
}
