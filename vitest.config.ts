import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

const alias = { '@': path.resolve(import.meta.dirname, 'src') };

const UNIT = ['src/**/*.test.ts', 'scripts/**/*.test.ts'];
/**
 * Unit files that replace modules (vi.mock) or re-import them under another environment (vi.resetModules, vi.stubEnv),
 * and the queue worker's, which opens and drops many PGlite instances: late in a worker that had run seventy files
 * before it, V8 once aborted the process freeing their WebAssembly code (SIGTRAP, "Check failed:
 * jit_page_->allocations_.erase(addr) == 1" in ThreadIsolation::UnregisterWasmAllocation, Node 24). In a process of
 * its own it starts with none of the others' WebAssembly behind it.
 */
const NEEDS_ISOLATION = ['src/server/services/catalog/registry.test.ts', 'src/server/services/connectors/secrets.test.ts', 'src/server/queue/worker.test.ts'];
const unit = {
  environment: 'node' as const,
  // The same V8 check has since aborted a unit worker in CI in other files (nodejs/node#64500 describes it: PGlite
  // churn in one process desyncs V8's registry of JIT pages). It fires when wasm code is freed, and wasm code is freed
  // by the code GC (Liftoff code replaced on tier-up) or with its module; PGlite keeps one compiled module per process,
  // so without the code GC a worker frees no wasm code until it exits. The cost is the dead Liftoff code, a few MB.
  execArgv: ['--no-wasm-code-gc'],
  globalSetup: ['tests/support/pglite-snapshot.ts'],
  // vitest's default on a 2-core machine is one worker (cores - 1): the unit files, each on its own in-memory
  // database, ran one after the other. Two at a time; the REST files after them, one at a time (below).
  maxWorkers: 2,
  sequence: { groupOrder: 0 },
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        // an in-memory PGlite with its migrations can take longer than 10 s to set up on a busy 2-core machine
        test: {
          ...unit,
          name: 'unit',
          include: UNIT,
          exclude: [...configDefaults.exclude, ...NEEDS_ISOLATION],
          // Each worker imports the app's modules once for all the files it runs, instead of once per file: that
          // import was about a third of the unit files' time, and 45% of the CPU of a sample of twenty of them.
          // The files open their own databases and share no mutable module state; the ones that replace modules or
          // the environment (NEEDS_ISOLATION) run in the project below, each file on fresh modules as before.
          isolate: false,
        },
      },
      {
        resolve: { alias },
        test: { ...unit, name: 'unit-isolated', include: NEEDS_ISOLATION, sequence: { groupOrder: 1 } },
      },
      {
        resolve: { alias },
        test: {
          name: 'rest',
          include: ['tests/rest/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/global-setup.ts'],
          // One file at a time. Two at a time took 435–457 s instead of 760 s (a REST file mostly waits on its servers,
          // heartbeats, schedules and restarts), but the files share the two servers and organization A, and a test that
          // reads its organization's newest audit event (audit.test.ts's export) then saw another file's sign-in: the
          // files must first each work in an organization of their own.
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
