import { expect, test, type Page } from '@playwright/test';
import { signUp } from './support';

/**
 * Pipelines between organizations (issue 30 §4): one exports a pipeline from the editor; another organization imports
 * the file, maps its connector to one of its own in the dialog, and gets the pipeline, not deployed. UI_SHOTS=1 saves
 * /tmp/transfer-*.png.
 */

async function shot(page: Page, name: string) {
  if (process.env.UI_SHOTS) await page.screenshot({ path: `/tmp/transfer-${name}.png`, fullPage: true });
}

const definition = {
  nodes: [
    { id: 'in', type: 'manual-trigger', config: { fields: { patient: 'json' } }, position: { x: 0, y: 0 } },
    { id: 'check', type: 'fhir-validate', config: {}, position: { x: 280, y: 0 } },
    { id: 'write', type: 'fhir-write', config: { connector: 'Research FHIR', operation: 'create' }, position: { x: 560, y: 0 } },
    { id: 'out', type: 'pipeline-output', config: {}, position: { x: 840, y: 0 } },
  ],
  connections: [
    { source: 'in', source_port: 'patient', target: 'check', target_port: 'resource' },
    { source: 'check', source_port: 'valid', target: 'write', target_port: 'resource' },
    { source: 'write', source_port: 'result', target: 'out', target_port: 'value' },
  ],
};

test('export a pipeline from the editor and import it into another organization with its connector mapped', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await signUp(page, 'Rosalind Franklin');
  const connector = { type: 'fhir', endpoint: 'http://fhir.hospital.example/R4', config: { auth: 'bearer' }, credentials: { token: 'tok-never-exported' } };
  expect((await page.request.post('/api/connectors', { data: { name: 'Research FHIR', ...connector } })).status()).toBe(201);
  const created = await page.request.post('/api/pipelines', { data: { name: 'Admissions to research', definition } });
  expect(created.status()).toBe(201);
  const { id } = await created.json();

  await page.goto(`/pipelines/${id}`);
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export pipeline' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('Admissions-to-research.clinflow.json');
  const file = '/tmp/transfer-export.clinflow.json';
  await download.saveAs(file);

  // another person, in an organization of their own, with a connector named differently
  const other = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const them = await other.newPage();
  them.on('pageerror', (e) => problems.push(e.message));
  await signUp(them, 'Maurice Wilkins');
  expect((await them.request.post('/api/connectors', { data: { name: 'Our FHIR store', ...connector } })).status()).toBe(201);
  await them.goto('/pipelines');
  await them.getByRole('button', { name: 'Import' }).click();
  const dialog = them.getByRole('dialog', { name: 'Import pipelines' });
  await dialog.getByLabel('Export file').setInputFiles(file);
  await expect(dialog.getByText('Admissions to research')).toBeVisible();
  await expect(dialog.getByRole('list', { name: 'Pipelines in the file' })).toContainText('valid');
  await expect(dialog.getByText('Missing connectors')).toBeVisible();
  await shot(them, 'missing');
  await dialog.getByLabel('Connector for Research FHIR').selectOption({ label: 'Our FHIR store' });
  await expect(dialog.getByText('Missing connectors')).toHaveCount(0);
  await shot(them, 'mapped');
  await dialog.getByRole('button', { name: 'Import pipeline' }).click();
  // the toast first: it shows at once and fades after a few seconds, while the editor may take longer to load
  await expect(them.getByText('Imported “Admissions to research” (not deployed)')).toBeVisible();
  await expect(them).toHaveURL(/\/pipelines\/[0-9a-f-]{36}$/);
  await shot(them, 'imported');

  const importedId = them.url().split('/').at(-1)!;
  const imported = await (await them.request.get(`/api/pipelines/${importedId}`)).json();
  expect(imported.deployed_version).toBeNull();
  expect(imported.definition.nodes.find((n: { id: string }) => n.id === 'write').config.connector).toBe('Our FHIR store');
  await other.close();
  expect(problems).toEqual([]);
});
