/** MLLP framing on the receiving side: <VT> message <FS><CR>, several per connection, split across reads. */
const VT = 0x0b;
const FS = 0x1c;
const CR = 0x0d;

export class FrameTooLarge extends Error {}

/**
 * Collects a connection's bytes and hands out each complete message (without its frame). Bytes before a
 * VT are line noise some senders emit (a stray CR/LF between frames) and are dropped.
 */
export class MllpDeframer {
  private buffer: Buffer = Buffer.alloc(0);

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): Buffer[] {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    const messages: Buffer[] = [];
    for (;;) {
      const start = this.buffer.indexOf(VT);
      if (start < 0) {
        this.buffer = Buffer.alloc(0);
        break;
      }
      let end = this.buffer.indexOf(FS, start + 1);
      while (end >= 0 && end + 1 < this.buffer.length && this.buffer[end + 1] !== CR) end = this.buffer.indexOf(FS, end + 1);
      if (end < 0 || end + 1 >= this.buffer.length) {
        this.buffer = this.buffer.subarray(start);
        if (this.buffer.length > this.maxBytes) throw new FrameTooLarge(`a message larger than ${this.maxBytes} bytes`);
        break;
      }
      messages.push(this.buffer.subarray(start + 1, end));
      this.buffer = this.buffer.subarray(end + 2);
    }
    return messages;
  }
}
