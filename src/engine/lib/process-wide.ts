/**
 * One value per process, whichever copy of a module asks: the server's own bundle and Next's server bundle
 * each hold a copy of our modules, and a pool or a count kept in a module variable would be kept twice.
 */
export function processWide<T>(name: string, make: () => T): T {
  // globalThis keyed by a registered symbol: its type knows no such keys
  const store = globalThis as unknown as Record<symbol, T | undefined>;
  const key = Symbol.for(`clinflow.${name}`);
  return (store[key] ??= make());
}
