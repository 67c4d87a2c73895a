import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * Browser tests of the web app against the already-built app (`npx next build` first), started on a
 * fresh embedded database. Run with `npx playwright test`.
 */
// E2E_PORT lets two checkouts run their browser tests at the same time
const PORT = Number(process.env.E2E_PORT ?? 3210);
const BASE_URL = `http://127.0.0.1:${PORT}`;
const E2E_ORG_ID = 'e2e-org-0000-0000-0000-000000000001';
const E2E_ADMIN_KEY = 'cfk_e2e_bootstrap_admin_key_0123456789';

// The config is loaded again in each worker: make the folder once and hand it down through the env.
process.env.CLINFLOW_E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'clinflow-e2e-'));

export default defineConfig({
  testDir: 'e2e/ui',
  // One browser at a time: with two, two of the first 33 specs timed out on a lightly loaded 2-core machine (two
  // browsers and the server share the cores). Specs sign up over the API (support.ts signUp), not through the form.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    command: 'npx node scripts/start.mjs',
    url: `${BASE_URL}/api/openapi.json`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOSTNAME: '127.0.0.1',
      DATA_DIR: process.env.CLINFLOW_E2E_DATA_DIR,
      BOOTSTRAP_ORG_ID: E2E_ORG_ID,
      BOOTSTRAP_API_KEY: E2E_ADMIN_KEY,
      LOG_LEVEL: 'warn',
      // the connector tests start their FHIR server on loopback
      OUTBOUND_ALLOW: 'loopback',
      // every spec signs up its own user from the same address: more than the 10 a minute a stranger gets
      AUTH_ATTEMPTS_PER_MINUTE: '1000',
    },
  },
});
