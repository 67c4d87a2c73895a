import { LRUCache } from 'lru-cache';
import { AppError } from '@/server/errors';

/** Chains whose last refusal is remembered, the least recently refused forgotten past it. */
const CHAINS_REMEMBERED = 10_000;

/**
 * The refusals along chains of messages that run in order (a connection's, or under `order: patient` a sender's
 * patient's: MessageStore.chainOf). A sender sends a refused message again; the messages of its chain that it had
 * already sent behind it (a sender that does not wait for each ACK) must not run before it, so each message of the
 * chain that arrived before the refusal went out is refused too, as ConnectionRoom refuses those waiting behind one
 * it refuses. A message that arrives after it (the refused one sent again, first) goes in. A message refused for being
 * behind one counts as a refusal too: what arrived before its AR is refused in turn, so a sender that pipelines gets
 * back every message it must send again and resends them in order (go-back-N), at the cost of refusing now and then a
 * resend that raced an AR.
 */
export class RefusedChains {
  private arrivals = 0;
  /** Per chain, the arrival number of the last message that had arrived when one of the chain was refused. */
  private readonly refusedThrough = new LRUCache<string, number>({ max: CHAINS_REMEMBERED });

  /** A message arrives: its number in the order of arrival. */
  arrived(): number {
    return ++this.arrivals;
  }

  /** A message of `chain` is refused (its AR goes out now). */
  refused(chain: string): void {
    this.refusedThrough.set(chain, this.arrivals);
  }

  /** Why the message of `chain` that arrived `arrival`th is refused, if it arrived before a refusal along its chain. */
  refusal(chain: string, arrival: number): AppError | undefined {
    const through = this.refusedThrough.get(chain);
    return through !== undefined && arrival <= through ? behindRefused() : undefined;
  }

  /** A chain that ends (its connection closed): its messages are gone with it. */
  forget(chain: string): void {
    this.refusedThrough.delete(chain);
  }
}

/** The refusal of a message whose chain's message before it was refused. */
export function behindRefused(): AppError {
  return new AppError(
    'CONCURRENCY_LIMIT',
    'A message sent before this one, which it must run after (same connection, or same patient under order: patient), was refused: ' +
      'send that one again first, then this one.',
  );
}
