import { expect, test } from '@playwright/test';

/**
 * /api/docs works offline as a user expects: an operation opens with its parameters and responses, and
 * "Try it out" sends a real request with a key pasted under Authorize (the bootstrap admin key here).
 */
const ORG = 'e2e-org-0000-0000-0000-000000000001';
const KEY = 'cfk_e2e_bootstrap_admin_key_0123456789';

test('the API reference opens an operation and sends a request with a pasted key', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.protocol.startsWith('http') && !['127.0.0.1', 'localhost'].includes(url.hostname)) problems.push(`outside request: ${r.url()}`);
  });
  await page.goto('/api/docs');
  // the first page of a fresh server: Swagger UI's bundle and the whole OpenAPI document are loaded and rendered cold
  await expect(page.getByRole('heading', { name: /Clinflow API/ })).toBeVisible({ timeout: 30_000 });

  // paste the key under Authorize
  await page.getByRole('button', { name: 'Authorize', exact: true }).first().click();
  await page.getByRole('textbox', { name: 'auth-bearer-value' }).fill(KEY);
  await page.getByRole('button', { name: 'Apply credentials' }).click();
  await page.getByRole('button', { name: 'Close' }).first().click();

  // open GET /pipelines: its parameters and responses show (it used to spin forever)
  const op = page.locator('.opblock').filter({ has: page.getByRole('button', { name: /^GET \/pipelines List pipelines/ }) });
  await op.getByRole('button', { name: /^GET \/pipelines List pipelines/ }).click();
  await expect(op.getByText('X-Organization-ID')).toBeVisible();
  await expect(op.locator('.responses-table').first()).toContainText('429');
  await expect(op.getByText('RATE_LIMITED').first()).toBeVisible();

  // try it out: a real request, answered 200 with the organization's pipelines
  await op.getByRole('button', { name: 'Try it out' }).click();
  await op.locator('tr[data-param-name="X-Organization-ID"] input').fill(ORG);
  await op.getByRole('button', { name: 'Execute' }).click();
  const live = op.locator('.live-responses-table');
  await expect(live.locator('tr.response .response-col_status').first()).toHaveText('200');
  await expect(live).toContainText('total_count');
  await expect(live).toContainText('x-ratelimit-remaining');
  if (process.env.UI_SHOTS) await page.screenshot({ path: '/tmp/ui-api-docs-try.png', fullPage: false });
  expect(problems).toEqual([]);
});
