import { expect, test } from '@playwright/test';
import { signUp } from './support';
import { startFhirServer, type FhirPeer } from '../../tests/support/fhir-server';

/**
 * A FHIR connector end to end in the browser: created in Settings → Connectors from its type's form, tested
 * for real against a FHIR server on loopback, picked in a FHIR query node, run. UI_SHOTS=1 saves
 * /tmp/connectors-*.png.
 */

let fhir: FhirPeer;
test.beforeAll(async () => {
  fhir = await startFhirServer({ auth: 'bearer' });
  await fhir.repo.createResource({ resourceType: 'Patient', name: [{ family: 'Kshlerin', given: ['Aaron'] }], gender: 'male' } as never);
});
test.afterAll(async () => fhir.close());

test('create a FHIR connector in the UI, test it, use it in a pipeline, run it', async ({ page }) => {
  await signUp(page, 'Grace Hopper');

  await page.getByRole('link', { name: 'Connectors' }).click();
  await expect(page.getByRole('heading', { name: 'No connectors yet' })).toBeVisible();
  await page.getByRole('button', { name: 'New connector' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New connector' });
  await dialog.getByLabel('Type').selectOption('fhir');
  await dialog.getByLabel('Name').fill('Hospital FHIR');
  await dialog.getByLabel('Endpoint').fill(fhir.baseUrl);
  await expect(dialog.getByLabel('Token URL')).toHaveCount(0); // oauth2 settings appear only for oauth2
  await dialog.locator('select[id$="_auth"]').selectOption('oauth2');
  await expect(dialog.getByLabel('Token URL')).toBeVisible();
  await dialog.locator('select[id$="_auth"]').selectOption('bearer');
  await expect(dialog.getByLabel('Token URL')).toHaveCount(0);
  await dialog.getByLabel('Token', { exact: true }).fill(fhir.credentials.token);
  if (process.env.UI_SHOTS) await page.screenshot({ path: '/tmp/connectors-dialog.png' });
  await dialog.getByRole('button', { name: 'Create connector' }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByTestId('connector-Hospital FHIR');
  await expect(row).toContainText(fhir.baseUrl);
  await row.getByRole('button', { name: 'Test' }).click();
  const result = row.getByRole('list', { name: 'Test result' });
  await expect(result).toContainText('CapabilityStatement read: FHIR 4.0.1');
  await expect(result.getByLabel('passed')).toHaveCount(2); // connect, metadata
  if (process.env.UI_SHOTS) await page.screenshot({ path: '/tmp/connectors-tested.png' });
  // the secret is not on the page, not even masked in full
  expect(await page.content()).not.toContain(fhir.credentials.token);

  // a pipeline picks it by name in the FHIR query node, and a test run reads the server
  const definition = {
    nodes: [
      { id: 'in', type: 'manual-trigger', config: {}, position: { x: 0, y: 0 } },
      { id: 'patients', type: 'fhir-query', config: { connector: 'Hospital FHIR', query: 'Patient?family=Kshlerin' }, position: { x: 320, y: 0 } },
      { id: 'out', type: 'pipeline-output', config: {}, position: { x: 640, y: 0 } },
    ],
    connections: [
      { source: 'in', source_port: 'event', target: 'patients', target_port: 'params' },
      { source: 'patients', source_port: 'bundle', target: 'out', target_port: 'value' },
    ],
  };
  const id = ((await (await page.request.post('/api/pipelines', { data: { name: 'Find patients', definition } })).json()) as { id: string }).id;
  await page.goto(`/pipelines/${id}`);
  await page.locator('.react-flow__node[data-id="patients"]').click();
  const panel = page.getByRole('region', { name: 'Node configuration' });
  await expect(panel.locator('select[id$="_connector"]')).toHaveValue('Hospital FHIR');
  await page.getByRole('button', { name: 'Test run' }).click();
  await page.getByRole('dialog', { name: 'Run in test mode' }).getByRole('button', { name: 'Run test' }).click();
  await expect(page.getByTestId('node-out')).toHaveAttribute('data-status', 'completed');
  const execution = page.getByRole('region', { name: 'Execution' });
  await execution.getByTestId('exec-node-patients').click();
  await expect(execution.getByText('1 resource: 1 Patient')).toBeVisible();
  await expect(execution.getByText('Aaron Kshlerin · male')).toBeVisible();
});
