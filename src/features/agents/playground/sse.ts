/** One Server-Sent Event: its name (`message` when the server names none) and its data lines joined. */
export interface SseEvent {
  event: string;
  data: string;
}

/**
 * Reads a text/event-stream as it arrives: feed it chunks in order (a chunk may end anywhere, even mid-line)
 * and it returns the events completed so far. Events end at a blank line; `event:` names one, `data:` lines
 * are joined with new lines, comments (`:`) and other fields are ignored.
 */
export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];

  push(chunk: string): SseEvent[] {
    this.buffer += chunk;
    const out: SseEvent[] = [];
    for (;;) {
      const end = this.buffer.search(/\r\n|\r|\n/);
      if (end < 0) break;
      // a lone \r at the very end may be the first half of \r\n: wait for the next chunk
      if (this.buffer[end] === '\r' && end === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + (this.buffer.startsWith('\r\n', end) ? 2 : 1));
      const done = this.line(line);
      if (done) out.push(done);
    }
    return out;
  }

  /** What is left when the stream closes (an event the server did not end with a blank line). */
  end(): SseEvent[] {
    const rest = this.buffer ? this.push('\n') : [];
    const last = this.line('');
    return last ? [...rest, last] : rest;
  }

  private line(line: string): SseEvent | null {
    if (line === '') {
      if (this.data.length === 0 && !this.event) return null;
      const e = { event: this.event || 'message', data: this.data.join('\n') };
      this.event = '';
      this.data = [];
      return e;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    return null;
  }
}

/**
 * Reads an event stream to its end, handing each event whose data is JSON to `onEvent` as `{event, data}` as soon
 * as it is complete (an event whose data is not JSON is not one of ours: skipped).
 */
export async function readJsonEvents<T>(body: ReadableStream<BufferSource>, onEvent: (e: T) => void): Promise<void> {
  const parser = new SseParser();
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  const emit = (events: SseEvent[]) => {
    for (const e of events) {
      let data: unknown;
      try {
        data = JSON.parse(e.data);
      } catch {
        continue;
      }
      onEvent({ event: e.event, data } as T);
    }
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    emit(parser.push(value));
  }
  emit(parser.end());
}
