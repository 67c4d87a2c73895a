/**
 * A one-reader queue of events between a producer that must run to its end (an agent turn is saved even when
 * nobody reads it any more) and a reader that may stop early (a client that went away).
 */
export class EventChannel<T> {
  private readonly buffer: T[] = [];
  private wake?: () => void;
  private closed = false;

  push(value: T): void {
    if (this.closed) return;
    this.buffer.push(value);
    this.wake?.();
  }

  end(): void {
    this.closed = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for (;;) {
      if (this.buffer.length) {
        yield this.buffer.shift()!;
        continue;
      }
      if (this.closed) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}

const encoder = new TextEncoder();

/** `event: NAME\ndata: JSON\n\n` per event, each enqueued as it comes; a reader that cancels stops reading only. */
export function toEventStream(events: AsyncIterable<{ event: string; data: unknown }>): ReadableStream<Uint8Array> {
  const it = events[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await it.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(`event: ${next.value.event}\ndata: ${JSON.stringify(next.value.data)}\n\n`));
      },
      async cancel() {
        await it.return?.(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
