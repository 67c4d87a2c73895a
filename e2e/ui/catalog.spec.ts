import { expect, test, type Page } from '@playwright/test';
import { signUp } from './support';

/**
 * The node catalog browser: every node type by category, searched by what it does, with its ports, configuration
 * fields, errors, example and documentation. UI_SHOTS=1 saves screenshots to /tmp/catalog-*.png.
 */

async function shot(page: Page, name: string) {
  if (process.env.UI_SHOTS) await page.screenshot({ path: `/tmp/catalog-${name}.png`, fullPage: true });
}

test('browse the node catalog, search it, read a node in full', async ({ page }) => {
  await signUp(page, 'Mary Seacole');

  await page.getByRole('link', { name: 'Node catalog' }).click();
  await expect(page.getByRole('heading', { name: 'Node catalog', level: 1 })).toBeVisible();
  const list = page.getByRole('navigation', { name: 'Node types' });
  for (const category of ['Control', 'Healthcare', 'Data', 'Claims', 'Output']) {
    await expect(list.getByRole('heading', { name: category })).toBeVisible();
  }
  await shot(page, 'all');

  // search by what a node does, not only its name
  await page.getByLabel('Search nodes').fill('safe harbor');
  await expect(list.getByRole('button')).toHaveText(['HL7 v2 de-identify', 'FHIR de-identify']);
  await list.getByRole('button', { name: 'FHIR de-identify' }).click();
  await expect(page).toHaveURL(/\?node=fhir-deidentify$/);
  const detail = page.locator('section').filter({ has: page.getByRole('heading', { name: 'FHIR de-identify', level: 2 }) });
  await expect(detail.getByText('fhir-deidentify', { exact: true })).toBeVisible();
  await expect(detail.getByRole('heading', { name: 'Inputs' })).toBeVisible();
  await expect(detail.locator('dl').getByText('date_shift_days', { exact: true })).toBeVisible();
  await expect(detail.getByText('FHIR_INVALID').first()).toBeVisible();
  await expect(detail.getByText('HMAC-SHA256 pseudonym', { exact: false }).first()).toBeVisible();
  await shot(page, 'fhir-deidentify');

  // a link to a node opens it; a search with no match says so
  await page.goto('/catalog?node=x12-parse');
  await expect(page.getByRole('heading', { name: /X12/, level: 2 })).toBeVisible();
  await page.getByLabel('Search nodes').fill('no such thing at all');
  await expect(page.getByText('No node matches')).toBeVisible();
});
