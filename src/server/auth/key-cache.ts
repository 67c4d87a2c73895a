import type { Principal } from './principal';

interface Entry {
  principal: Principal;
  orgId: string;
  lastUsedAt: number | null;
}

const MAX_ENTRIES = 10_000;

/**
 * API keys by hash, for the embedded database only. There one process owns the database, so every
 * revocation happens in this process and clears the cache: revoked keys still stop working at once.
 * On Postgres other processes revoke keys too, so there is no cache and every request asks the database.
 */
export class KeyCache {
  private entries = new Map<string, Entry>();
  /** Bumped by every revocation; a lookup that started before one must not fill the cache. */
  generation = 0;

  get(hash: string): Entry | undefined {
    return this.entries.get(hash);
  }

  set(hash: string, entry: Entry, lookedUpAt: number): void {
    if (lookedUpAt !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(hash, entry);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
