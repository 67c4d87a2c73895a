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
