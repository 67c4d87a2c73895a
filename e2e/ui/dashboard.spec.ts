import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { signUp } from './support';

/**
 * The dashboard: runs per day, failure rate, the pipelines that fail most and the slowest nodes, from runs made
 * over the REST API with the browser's session. UI_SHOTS=1 saves screenshots to /tmp/dashboard-*.png.
 */

async function shot(page: Page, name: string) {
  if (process.env.UI_SHOTS) await page.screenshot({ path: `/tmp/dashboard-${name}.png`, fullPage: true });
}

const chain = (expression: string) => ({
  nodes: [
    { id: 'in', type: 'manual-trigger', config: {}, position: { x: 0, y: 0 } },
    { id: 'work', type: 'jsonata-transform', config: { expression }, position: { x: 300, y: 0 } },
    { id: 'out', type: 'pipeline-output', config: {}, position: { x: 600, y: 0 } },
  ],
  connections: [
    { source: 'in', source_port: 'event', target: 'work', target_port: 'input' },
    { source: 'work', source_port: 'output', target: 'out', target_port: 'value' },
  ],
});

test('the dashboard shows runs per day, failure rate, failing pipelines and slow nodes', async ({ page }) => {
  await signUp(page, 'Virginia Apgar');

  await page.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page.getByText('No runs in this period.')).toBeVisible();

  const create = async (name: string, expression: string) => {
    const res = await page.request.post('/api/pipelines', { data: { name, definition: chain(expression) } });
    return ((await res.json()) as { id: string }).id;
  };
  const admissions = await create('Admissions feed', '$sum([1..50000])');
  const claims = await create('Claims intake', '$error("payer unknown")');
  for (const [id, n] of [
    [admissions, 3],
    [claims, 1],
  ] as const) {
    for (let i = 0; i < n; i++) await page.request.post('/api/execute', { data: { pipeline_id: id, inputs: {}, test_mode: true } });
  }

  await page.reload();
  const figures = page.locator('main');
  await expect(figures.getByText('in the last 14 days')).toBeVisible();
  await expect(figures.getByText('1 of 4 finished runs failed')).toBeVisible();
  await expect(figures.getByText('25%').first()).toBeVisible();
  // the failing pipeline first, linking to its failed runs
  const failing = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Pipelines that fail most' }) });
  await expect(failing.getByRole('link').first()).toHaveText('Claims intake');
  await expect(failing.getByRole('link').first()).toHaveAttribute('href', `/executions?pipeline=${claims}&status=failed`);
  const slow = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Slowest nodes (95th percentile)' }) });
  await expect(slow.getByText('jsonata-transform · Admissions feed · 3 runs')).toBeVisible();
  // the chart's figures, as a screen reader gets them: today has 3 completed and 1 failed
  const today = new Intl.DateTimeFormat('en-CA').format(new Date());
  await expect(page.locator('table', { has: page.locator('caption', { hasText: 'Runs per day' }) }).locator('tr', { hasText: today })).toContainText(
    `${today}310`,
  );
  await shot(page, 'runs');

  await page.getByLabel('Period').selectOption('30');
  await expect(page).toHaveURL(/\/dashboard\?days=30$/);
  await expect(figures.getByText('in the last 30 days')).toBeVisible();
});

const DIR = path.resolve(import.meta.dirname, '../../../shared/data/hl7v2/messages');
const ADT = fs.readFileSync(
  path.join(
    DIR,
    fs.readdirSync(DIR).find((f) => f.startsWith('ADT-'))!,
  ),
  'utf8',
);

const toFhir = {
  nodes: [
    { id: 'in', type: 'manual-trigger', config: { fields: { message: 'text' } }, position: { x: 0, y: 0 } },
    { id: 'parse', type: 'hl7v2-parse', config: {}, position: { x: 300, y: 0 } },
    { id: 'fhir', type: 'hl7v2-to-fhir', config: {}, position: { x: 600, y: 0 } },
  ],
  connections: [
    { source: 'in', source_port: 'message', target: 'parse', target_port: 'text' },
    { source: 'parse', source_port: 'message', target: 'fhir', target_port: 'message' },
  ],
};

test('the storage card shows what each pipeline’s runs keep and take, and an admin runs the pruner', async ({ page }) => {
  await signUp(page, 'Florence Nightingale');
  const created = await page.request.post('/api/pipelines', { data: { name: 'ADT to FHIR', definition: toFhir, data_settings: { policy: 'full' } } });
  const id = ((await created.json()) as { id: string }).id;
  for (let i = 0; i < 2; i++) {
    const ran = await page.request.post('/api/execute', { data: { pipeline_id: id, inputs: { message: ADT }, test_mode: true } });
    expect(((await ran.json()) as { status: string }).status).toBe('completed');
  }

  await page.getByRole('link', { name: 'Dashboard' }).click();
  // the storage card's table: a row per pipeline with runs stored
  const row = page
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: 'ADT to FHIR' }) })
    .filter({ hasText: 'with payloads' });
  await expect(row).toContainText('2 with payloads · 0 without');
  // the size shown is the report's estimate: the runs as stored (the bundles deflated), in KB
  const report = (await (await page.request.get('/api/storage')).json()) as { pipelines: { pipeline_id: string; estimated_bytes: number }[] };
  const bytes = report.pipelines.find((p) => p.pipeline_id === id)!.estimated_bytes;
  expect(bytes).toBeGreaterThan(ADT.length);
  await expect(row.getByRole('cell').nth(2)).toHaveText(`${bytes < 10_000 ? (bytes / 1000).toFixed(1) : Math.round(bytes / 1000)} KB`);
  await expect(row).toContainText('payloads 30 d · runs 365 d');
  // (the pruner's own schedule may have run already in this server: what it says then is checked after Prune now)
  await expect(page.getByTestId('pruner-last-run')).toContainText(/The pruner has not run yet|Pruner last ran/);
  await shot(page, 'storage');

  // nothing is old enough to go: the pruner runs, says so, and the card says when it last ran
  await page.getByRole('button', { name: 'Prune now' }).click();
  await expect(page.getByText('Pruner completed: 0 runs deleted, 0 payloads removed, 0 B freed')).toBeVisible();
  await expect(page.getByTestId('pruner-last-run')).toContainText('Pruner last ran just now (completed): it removed 0 runs and the payloads of 0 here');
  await expect(row).toContainText('2 with payloads · 0 without');
});
