import { describe, expect, it } from 'vitest';
import { hasScope, isValidScope } from './scopes';

describe('scopes', () => {
  it('admin allows everything; write and execute include read; nothing else is implied', () => {
    expect(hasScope(['admin'], 'write')).toBe(true);
    expect(hasScope(['admin'], 'agent/00000000-0000-4000-8000-000000000000:execute')).toBe(true);
    expect(hasScope(['write'], 'read')).toBe(true);
    expect(hasScope(['execute'], 'read')).toBe(true);
    expect(hasScope(['read'], 'write')).toBe(false);
    expect(hasScope(['write'], 'execute')).toBe(false);
    expect(hasScope(['execute'], 'write')).toBe(false);
    expect(hasScope(['agent/00000000-0000-4000-8000-000000000000:execute'], 'read')).toBe(false);
    expect(hasScope([], 'read')).toBe(false);
  });

  it('accepts only known scopes and well-formed agent scopes', () => {
    for (const s of ['admin', 'read', 'write', 'execute', 'agent/0f8fad5b-d9cb-469f-a165-70867728950e:execute']) {
      expect(isValidScope(s), s).toBe(true);
    }
    for (const s of ['root', 'agent/*:execute', 'agent/0f8fad5b:execute', 'agent/0f8fad5b-d9cb-469f-a165-70867728950e:write', '']) {
      expect(isValidScope(s), s).toBe(false);
    }
  });
});
