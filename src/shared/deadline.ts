/**
 * A call's time limit joined with its caller's signal: `signal` aborts when the caller's does (with the caller's
 * reason) or when the time is up (with the TimeoutError AbortSignal.timeout gives), whichever comes first.
 *
 * It stands for `AbortSignal.any([caller, AbortSignal.timeout(ms)])`, which cost a feed message's FHIR write more than
 * its HTTP exchange: Node keeps every timeout signal given to `any` alive (and its timer armed) until it fires, 30
 * seconds later, however soon the call ended, and reading a composite signal's `aborted` walks its sources' weak
 * references. Here the call says when it is over: `release()` stops the timer and lets go of the caller's signal
 * (nothing aborts after it). A deadline not released ends itself when the time is up, as the timeout signal did.
 */
export class Deadline {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly caller: AbortSignal | undefined;
  private timer: NodeJS.Timeout | undefined;
  private expired = false;

  constructor(ms: number, caller?: AbortSignal) {
    this.signal = this.controller.signal;
    this.caller = caller;
    if (caller?.aborted) {
      this.controller.abort(caller.reason);
      return;
    }
    caller?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.timer = setTimeout(this.onTimeout, ms);
    this.timer.unref();
  }

  /** Whether the time limit (not the caller) stopped the call. */
  get timedOut(): boolean {
    return this.expired;
  }

  /** The call is over: no abort from now on, the timer stopped, the caller's signal no longer listened to. */
  release(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.caller?.removeEventListener('abort', this.onCallerAbort);
  }

  private readonly onCallerAbort = () => {
    this.release();
    this.controller.abort(this.caller!.reason);
  };

  private readonly onTimeout = () => {
    this.timer = undefined;
    this.release();
    this.expired = true;
    this.controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  };
}
