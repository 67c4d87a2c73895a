import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { Deadline } from './deadline';

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Deadline', () => {
  it('aborts with a TimeoutError when the time is up, and says so', async () => {
    const caller = new AbortController();
    const deadline = new Deadline(20, caller.signal);
    expect(deadline.signal.aborted).toBe(false);
    await later(60);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.timedOut).toBe(true);
    expect((deadline.signal.reason as DOMException).name).toBe('TimeoutError');
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it("aborts with the caller's reason when the caller aborts first", () => {
    const caller = new AbortController();
    const deadline = new Deadline(10_000, caller.signal);
    const reason = new Error('stopped by the user');
    caller.abort(reason);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.signal.reason).toBe(reason);
    expect(deadline.timedOut).toBe(false);
  });

  it('is aborted from the start when the caller already is', () => {
    const caller = new AbortController();
    caller.abort('gone');
    const deadline = new Deadline(10_000, caller.signal);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.signal.reason).toBe('gone');
  });

  it('once released, neither the time limit nor the caller aborts it, and the caller is no longer listened to', async () => {
    const caller = new AbortController();
    const deadline = new Deadline(20, caller.signal);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
    deadline.release();
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    await later(60);
    caller.abort();
    expect(deadline.signal.aborted).toBe(false);
    expect(deadline.timedOut).toBe(false);
  });

  it('works without a caller signal', async () => {
    const deadline = new Deadline(20);
    await later(60);
    expect(deadline.timedOut).toBe(true);
  });
});
