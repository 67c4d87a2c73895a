import { describe, expect, it } from 'vitest';
import { SseParser } from './sse';

describe('SseParser', () => {
  it('reads events split anywhere across chunks', () => {
    const text = 'event: thinking\ndata: {"content":"a"}\n\nevent: message\ndata: {"content":"Hi"}\n\nevent: done\ndata: {}\n\n';
    for (let size = 1; size <= text.length; size++) {
      const p = new SseParser();
      const events = [];
      for (let i = 0; i < text.length; i += size) events.push(...p.push(text.slice(i, i + size)));
      events.push(...p.end());
      expect(events).toEqual([
        { event: 'thinking', data: '{"content":"a"}' },
        { event: 'message', data: '{"content":"Hi"}' },
        { event: 'done', data: '{}' },
      ]);
    }
  });

  it('joins data lines, skips comments, accepts CRLF and an unterminated last event', () => {
    const p = new SseParser();
    expect(p.push(': ping\r\n\r\ndata: one\r\ndata: two\r')).toEqual([]);
    expect(p.push('\n\r\nevent: done\ndata: {}')).toEqual([{ event: 'message', data: 'one\ntwo' }]);
    expect(p.end()).toEqual([{ event: 'done', data: '{}' }]);
  });
});
