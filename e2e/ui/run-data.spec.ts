import { expect, test, type Page } from '@playwright/test';
import { signUp } from './support';

/**
 * "Run data" (issue 27): an admin sets the organization's defaults in Settings → Run data, a pipeline overrides
 * them in the editor's Settings tab (each value showing what it inherits), and a production run that kept no data
 * says so where its data would be. UI_SHOTS=1 saves /tmp/run-data-*.png.
 */

async function shot(page: Page, name: string) {
  if (process.env.UI_SHOTS) await page.screenshot({ path: `/tmp/run-data-${name}.png`, fullPage: true });
}

test('run data: organization defaults, a pipeline override, and a run that says its data was not kept', async ({ page }) => {
  test.setTimeout(180_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await signUp(page, 'Mary Seacole');

  // the organization's defaults: only failed runs keep data, for 14 days
  await page.getByRole('link', { name: 'Run data' }).click();
  await expect(page).toHaveURL(/\/settings\/run-data$/);
  await expect(page.getByRole('heading', { name: 'Run data', level: 1 })).toBeVisible();
  await expect(page.getByText('Use the built-in default')).toBeVisible();
  await page.getByRole('radio', { name: /Only failed runs/ }).check();
  await page.getByLabel('Keep run data for (days)').fill('14');
  await shot(page, 'org-settings');
  await page.getByRole('button', { name: 'Save run data settings' }).click();
  await expect(page.getByText('Run data defaults saved')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('radio', { name: /Only failed runs/ })).toBeChecked();
  await expect(page.getByLabel('Keep run data for (days)')).toHaveValue('14');

  // a deployed pipeline, made over the REST API with the browser's session
  const request = page.request;
  const created = await request.post('/api/pipelines', {
    data: {
      name: 'Admissions feed',
      definition: {
        nodes: [
          { id: 'in', type: 'manual-trigger', config: {}, position: { x: 0, y: 0 } },
          { id: 't', type: 'jsonata-transform', config: { expression: '$' }, position: { x: 260, y: 0 } },
          { id: 'out', type: 'pipeline-output', config: {}, position: { x: 520, y: 0 } },
        ],
        connections: [
          { source: 'in', source_port: 'event', target: 't', target_port: 'input' },
          { source: 't', source_port: 'output', target: 'out', target_port: 'value' },
        ],
      },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { id: string }).id;
  expect((await request.post(`/api/pipelines/${id}/deploy`, { data: {} })).status()).toBe(200);

  // the editor's Settings tab: inherits the organization's defaults, and says so
  await page.goto(`/pipelines/${id}`);
  await page.getByRole('tab', { name: 'Settings' }).click();
  const form = page.getByRole('form', { name: 'Run data' });
  await expect(form.getByRole('radio', { name: /Use the organization default/ })).toBeChecked();
  await expect(form.getByText('Only failed runs.')).toBeVisible();
  await expect(form.getByText('Empty: the organization default, 14 days.')).toBeVisible();
  await form.getByRole('radio', { name: /Status only/ }).check();
  await form.getByLabel('Most runs kept').fill('1000');
  await shot(page, 'editor-settings');
  await form.getByRole('button', { name: 'Save run data settings' }).click();
  await expect(page.getByText('Run data settings saved')).toBeVisible();
  type Got = { version: number; metadata: { data_settings: { effective: Record<string, unknown> } } };
  const got = (await (await request.get(`/api/pipelines/${id}`)).json()) as Got;
  expect(got.metadata.data_settings.effective).toMatchObject({ policy: 'metadata', payload_days: 14, max_executions: 1000 });
  expect(got.version).toBe(1); // a settings change is no new version
  await page.reload();
  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(page.getByRole('form', { name: 'Run data' }).getByRole('radio', { name: /Status only/ })).toBeChecked();

  // a production run keeps no data: its page says so instead of showing empty data
  const run = await request.post('/api/execute', { data: { pipeline_id: id, inputs: { patient: 'Ada Lovelace' } } });
  expect(run.status(), await run.text()).toBe(200);
  const executionId = ((await run.json()) as { execution_id: string }).execution_id;
  await page.goto(`/executions/${executionId}`);
  await expect(page.getByTestId('payloads-not-kept').first()).toContainText('keeps no run data');
  await expect(page.getByRole('link', { name: 'Debug in editor' })).toHaveCount(0);
  await page.locator('[data-row-id="t"]').click();
  const panel = page.getByTestId('node-panel');
  await expect(panel.getByTestId('payloads-not-kept')).toContainText('Data not kept');
  await expect(panel.getByRole('button', { name: 'Retry from here' })).toHaveCount(0);
  await expect(page.getByText('Ada Lovelace')).toHaveCount(0);
  await shot(page, 'run-not-kept');
  expect(problems).toEqual([]);
});
