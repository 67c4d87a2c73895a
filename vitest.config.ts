import path from 'node:path';
import { defineConfig } from 'vitest/config';

const alias = { '@': path.resolve(import.meta.dirname, 'src') };

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        // an in-memory PGlite with its migrations can take longer than 10 s to set up on a busy 2-core machine
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/pglite-snapshot.ts'],
          // vitest's default on a 2-core machine is one worker (cores - 1): the unit files, each on its own in-memory
          // database, ran one after the other. Two at a time; the REST files stay one at a time, after them (each
          // starts servers of its own, and two at a time made fresh embedded starts pass the 60 s test timeout).
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'rest',
          include: ['tests/rest/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/global-setup.ts'],
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
