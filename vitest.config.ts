import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

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
  // database, ran one after the other. Two at a time; the REST files after them, three at a time (below).
  maxWorkers: 2,
  sequence: { groupOrder: 0 },
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

/**
 * The files that take longest, longest first, in seconds. Unit (two at a time): worker 50 (heartbeats), architecture 33
 * (dependency-cruiser twice), fhir-equivalence 33, agreement 27, leak-scan 17. REST (they wait on restarts,
 * heartbeats and schedules): feed 150–190, retention 95–135, workers 48–89, fuzz 36–69, database-restart 23–40,
 * startup 35–98; the other files take 0–30. Without vitest's cache of durations (a fresh clone, CI) files start
 * largest first: feed.test.ts started 79 s into the REST step and ended alone, and worker.test.ts, of the project
 * after the others, ran its 50 s alone at the end of the unit step. A file missing from this list only starts later.
 */
const LONGEST = [
  ...[
    'src/server/queue/worker',
    'scripts/architecture',
    'src/clinical/deid/fhir-equivalence',
    'src/clinical/fhir/compiled/agreement',
    'src/clinical/deid/leak-scan',
  ],
  ...['feed', 'retention', 'workers', 'fuzz', 'database-restart', 'startup'].map((name) => `tests/rest/${name}`),
].map((file) => `/${file}.test.ts`);

/** vitest's order (groups one after the other; failed, then slowest, first), with LONGEST at the head of each group. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONGEST.findIndex((end) => f.moduleId.endsWith(end));
      return i < 0 ? LONGEST.length : i;
    };
    const groups = new Map<number, TestSpecification[]>();
    for (const f of await super.sort(files)) {
      const order = f.project.config.sequence.groupOrder;
      groups.set(order, [...(groups.get(order) ?? []), f]);
    }
    // Array.prototype.sort is stable: the files not in the list keep vitest's order
    return [...groups.values()].flatMap((group) => group.sort((a, b) => rank(a) - rank(b)));
  }
}

export default defineConfig({
  resolve: { alias },
  test: {
    sequence: { sequencer: LongestFirst },
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
        // beside the unit files (same group, the same two workers), each in a process of its own
        test: { ...unit, name: 'unit-isolated', include: NEEDS_ISOLATION },
      },
      {
        resolve: { alias },
        test: {
          name: 'rest',
          include: ['tests/rest/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/global-setup.ts'],
          // Three files at a time: a REST file mostly waits (on its servers, heartbeats, schedules, restarts); one at a
          // time the step took 711–760 s, three at a time 310–356 s beside other work (load average 6–7), longest
          // files first (LongestFirst). The files share the two servers: each works in an organization of its own
          // (organization A only in cross-org.test.ts, and read-only in catalog and models), counts only its own
          // things, picks free ports, and starts its own servers for restarts. If a file starts to fail only beside
          // others, look there first; 2 is the fallback (348–494 s, at load averages 3.5–6).
          maxWorkers: 3,
          sequence: { groupOrder: 2 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
