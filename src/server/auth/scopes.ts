import { AGENT_SCOPE } from '@/shared/ids';

/**
 * Scopes of an API key. `admin` allows everything; `write` and `execute` include `read`;
 * `agent/<uuid>:execute` allows invoking that one agent through /api/v1.
 */
export const BASE_SCOPES = ['admin', 'read', 'write', 'execute'] as const;
export type BaseScope = (typeof BASE_SCOPES)[number];

export function isValidScope(scope: string): boolean {
  return (BASE_SCOPES as readonly string[]).includes(scope) || AGENT_SCOPE.test(scope);
}

export function hasScope(granted: readonly string[], needed: BaseScope | `agent/${string}:execute`): boolean {
  if (granted.includes('admin') || granted.includes(needed)) return true;
  if (needed === 'read') return granted.includes('write') || granted.includes('execute');
  return false;
}
