import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '@/server/db/client';
import { HeldRuns } from './held-runs';

/**
 * What a process that received an MLLP connection's messages does with the ends other processes tell it (NOTIFY, ends-batch.ts
 * takeSuccessors): no database read is needed for any of it, so the database here refuses every statement.
 */
describe('held runs told of ends in other processes', () => {
  const made: HeldRuns[] = [];
  afterEach(() => made.splice(0).forEach((h) => h.stop()));

  const holder = () => {
    const released: { ids: string[]; here: boolean }[] = [];
    const errors: unknown[] = [];
    const refuses = { execute: () => Promise.reject(new Error('read')) } as unknown as Db;
    const held = new HeldRuns(
      refuses,
      'instance',
      (ids, here) => released.push({ ids, here }),
      (e) => errors.push(e),
    );
    held.listening();
    made.push(held);
    return { held, released, errors };
  };

  it('forgets each run an end took and stops counting each run that ended, along a connection', () => {
    const { held, released, errors } = holder();
    held.watch([{ id: 'e', key: 'c' }]); // admitted to run at once, in another process
    held.hold([
      { id: 'h1', afterId: 'e', key: 'c' },
      { id: 'h2', afterId: 'h1', key: 'c' },
    ]);
    expect(held.openFor('c')).toBe(3);
    held.told('e:h1');
    expect(held.openFor('c')).toBe(2);
    held.told('h1:h2,other:run');
    expect(held.openFor('c')).toBe(1);
    held.told('h2');
    expect(held.openFor('c')).toBe(0);
    expect(released).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('releases a run held after one that ended without taking it (admitted as that end was written)', () => {
    const { held, released } = holder();
    held.watch([{ id: 'e', key: 'c' }]);
    held.hold([{ id: 'late', afterId: 'e', key: 'c' }]);
    held.told('e');
    expect(released).toEqual([{ ids: ['late'], here: true }]);
    expect(held.openFor('c')).toBe(1); // released, open until it ended
    // a message admitted after the told end starts at once
    expect(held.mustWait('e')).toBe(false);
  });

  it('does not release a run told taken before its hold came, and ignores ends of runs it does not know', () => {
    const { held, released } = holder();
    held.watch([{ id: 'e', key: 'c' }]);
    held.told('e:h');
    held.hold([{ id: 'h', afterId: 'e', key: 'c' }]);
    expect(released).toEqual([]);
    expect(held.openFor('c')).toBe(1); // counted, running in the process that took it
    held.told('x:y');
    held.hold([{ id: 'z', afterId: 'x', key: 'd' }]);
    expect(released).toEqual([]);
    expect(held.mustWait('x')).toBe(true);
  });
});
