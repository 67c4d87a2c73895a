/** How often a connection whose messages wait for room looks again (an in-memory count). */
const LOOK_AGAIN_MS = 10;

interface Entrant {
  until: number;
  settle(passed: boolean): void;
}

/**
 * Room for the messages of each connection whose runs start in the order received (ack_mode stored): a connection may
 * have `max` runs open at once (`open`: held, queued or running, HeldRuns' count of its runs) counting the messages let
 * in and not yet admitted. A message that finds no room waits, in the order received, until a run of its connection
 * ended: a sender faster than its runs gets its ACKs later, as a busy interface engine answers, rather than refusals.
 * One that waited `waitMs` is refused, and every message of its connection behind it (a sender resends a refused
 * message: the ones after it must not go ahead of it), as are those of a connection that closes meanwhile (no ACK).
 */
export class ConnectionRoom {
  private readonly waiting = new Map<string, Entrant[]>();
  /** Messages let in that are not admitted (or refused) yet, per connection. */
  private readonly entered = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly open: (connection: string) => number,
    private readonly max: number,
    private readonly waitMs: number,
  ) {}

  /** Resolves true once a message of `connection` may be admitted, false when it is refused (waited too long, or closed). */
  enter(connection: string): Promise<boolean> {
    if (!this.waiting.has(connection) && this.hasRoom(connection)) {
      this.let(connection);
      return Promise.resolve(true);
    }
    return new Promise((settle) => {
      const queue = this.waiting.get(connection);
      const entrant = { until: performance.now() + this.waitMs, settle };
      if (queue) queue.push(entrant);
      else this.waiting.set(connection, [entrant]);
      this.timer ??= setTimeout(() => this.look(), LOOK_AGAIN_MS).unref();
    });
  }

  /** A message let in was admitted (then counted by `open`) or refused. */
  left(connection: string): void {
    const n = this.entered.get(connection)! - 1;
    if (n) this.entered.set(connection, n);
    else this.entered.delete(connection);
  }

  closed(connection: string): void {
    for (const e of this.waiting.get(connection) ?? []) e.settle(false);
    this.waiting.delete(connection);
  }

  private hasRoom(connection: string): boolean {
    return this.open(connection) + (this.entered.get(connection) ?? 0) < this.max;
  }

  private let(connection: string): void {
    this.entered.set(connection, (this.entered.get(connection) ?? 0) + 1);
  }

  private look(): void {
    this.timer = undefined;
    const now = performance.now();
    for (const [connection, queue] of this.waiting) {
      while (queue.length && this.hasRoom(connection)) {
        this.let(connection);
        queue.shift()!.settle(true);
      }
      if (queue[0] && queue[0].until <= now) queue.splice(0).forEach((e) => e.settle(false));
      if (queue.length === 0) this.waiting.delete(connection);
    }
    if (this.waiting.size) this.timer = setTimeout(() => this.look(), LOOK_AGAIN_MS).unref();
  }
}
