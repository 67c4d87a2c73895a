import type { Principal } from './principal';

interface Entry {
  principal: Principal;
  orgId: string;
  lastUsedAt: number | null;
}

const MAX_ENTRIES = 10_000;

/**
 * API keys by hash, so a request need not read its key from the database every time.
 *
 * Embedded, one process owns the database: every revocation happens here and clears the cache, so a revoked key
 * stops at once. On Postgres other processes revoke keys too: a revocation is announced (NOTIFY) and every process
 * clears its cache when it hears it, or when its listening connection comes back (what it may have missed), and an
 * entry is trusted for at most `ttlMs` (1 s) whatever happens — the bound on how long a key revoked elsewhere may
 * still be accepted here.
 */
export class KeyCache {
  private entries = new Map<string, Entry & { until: number }>();
  /** Bumped by every revocation; a lookup that started before one must not fill the cache. */
  generation = 0;

  constructor(private readonly ttlMs = Infinity) {}

  get(hash: string): Entry | undefined {
    const entry = this.entries.get(hash);
    if (entry && entry.until <= Date.now()) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry;
  }

  set(hash: string, entry: Entry, lookedUpAt: number): void {
    if (lookedUpAt !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(hash, Object.assign(entry, { until: Date.now() + this.ttlMs }));
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}

/** The NOTIFY channel of revoked API keys (Postgres). */
export const KEYS_CHANNEL = 'clinflow_api_keys_revoked';

/** How long a process may accept a key revoked in another one, should the announcement not reach it (Postgres). */
export const KEY_CACHE_TTL_MS = 1000;

/** Clears `cache` whenever another process announces a revoked key, and whenever the listening connection (re)opens. */
export async function listenForRevocations(url: string, cache: KeyCache): Promise<void> {
  const { default: postgres } = await import('postgres');
  const channel = postgres(url, { max: 1, onnotice: () => {} });
  await channel.listen(
    KEYS_CHANNEL,
    () => cache.clear(),
    () => cache.clear(),
  );
}
