import { AGENT_SCOPE, isUuid } from '@/shared/ids';
import type { RouterOutputs } from '@/trpc/react';

export type ApiKey = RouterOutputs['keys']['list'][number];
export type CreatedApiKey = RouterOutputs['keys']['create'];

export const BASE_SCOPES = [
  { scope: 'admin', label: 'admin', help: 'Everything in the organization, including API keys.' },
  { scope: 'read', label: 'read', help: 'Read pipelines, versions and executions.' },
  { scope: 'write', label: 'write', help: 'Create, change, deploy and delete pipelines (includes read).' },
  { scope: 'execute', label: 'execute', help: 'Run pipelines and agents (includes read).' },
] as const;

/**
 * Reads the free-text agent scopes: `agent/<uuid>:execute` (or a bare agent UUID) separated by spaces,
 * commas or new lines. Returns the scopes and the entries that are neither.
 */
export function parseAgentScopes(text: string): { scopes: string[]; invalid: string[] } {
  const scopes: string[] = [];
  const invalid: string[] = [];
  for (const raw of text.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (isUuid(entry)) scopes.push(`agent/${entry.toLowerCase()}:execute`);
    else if (AGENT_SCOPE.test(entry)) scopes.push(entry);
    else invalid.push(raw.trim());
  }
  return { scopes: [...new Set(scopes)], invalid };
}
