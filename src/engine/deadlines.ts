/**
 * Time limits of node attempts, cheap enough for every attempt of every node: attempts with the same
 * limit end in the order they started, so each limit keeps a FIFO list with one timer for its head.
 * Adding and clearing a deadline is a few pointer moves; no timer is made or cancelled per attempt.
 */
/** Whatever must happen when the time is up. */
export interface DeadlineTarget {
  onDeadline(): void;
}

export interface Deadline {
  at: number;
  target: DeadlineTarget | null;
  prev: Deadline | null;
  next: Deadline | null;
  list: DeadlineList;
}

interface DeadlineList {
  head: Deadline | null;
  tail: Deadline | null;
  timer: NodeJS.Timeout | null;
}

const lists = new Map<number, DeadlineList>();

/** Calls `target.onDeadline()` at `now + ms` unless the deadline is cleared first. */
export function addDeadline(ms: number, now: number, target: DeadlineTarget): Deadline {
  let list = lists.get(ms);
  if (!list) lists.set(ms, (list = { head: null, tail: null, timer: null }));
  const d: Deadline = { at: now + ms, target, prev: list.tail, next: null, list };
  if (list.tail) list.tail.next = d;
  else list.head = d;
  list.tail = d;
  if (!list.timer) arm(list, now);
  else if (!d.prev) list.timer.ref();
  return d;
}

export function clearDeadline(d: Deadline): void {
  if (!d.target) return;
  d.target = null;
  const list = d.list;
  if (d.prev) d.prev.next = d.next;
  else list.head = d.next;
  if (d.next) d.next.prev = d.prev;
  else list.tail = d.prev;
  d.prev = d.next = null;
  // the list's timer stays: when it rings early it is set again for the new head. It keeps the process
  // alive only while some attempt is under way, as a timer per attempt would.
  if (!list.head) list.timer?.unref();
}

function arm(list: DeadlineList, now: number): void {
  list.timer = setTimeout(() => ring(list), Math.max(0, list.head!.at - now));
}

function ring(list: DeadlineList): void {
  list.timer = null;
  const now = Date.now();
  while (list.head && list.head.at <= now) {
    const d = list.head;
    const target = d.target!;
    clearDeadline(d);
    target.onDeadline();
  }
  if (list.head) arm(list, now);
}
