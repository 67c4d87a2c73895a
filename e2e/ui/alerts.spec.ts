import { expect, test, type Page } from '@playwright/test';
import { signUp } from './support';

/**
 * Alerts (issue 30 §1): a pipeline names its error pipeline in the editor's Settings tab; its failing production run
 * starts the error pipeline and the dashboard marks the pipeline as failing now. UI_SHOTS=1 saves /tmp/alerts-*.png.
 *
 *   feed:   in (manual-trigger) ──▶ write (jsonata: $error "FHIR server down") ──▶ out
 *   alerts: on_error (error-trigger) ──event──▶ out (pipeline-output "alert")
 */
async function shot(page: Page, name: string) {
  if (process.env.UI_SHOTS) await page.screenshot({ path: `/tmp/alerts-${name}.png`, fullPage: true });
}

const at = (x: number) => ({ x, y: 0 });

test('an error pipeline set in the editor settings runs on a production failure; the dashboard marks the pipeline failing', async ({ page }) => {
  test.setTimeout(180_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await signUp(page, 'Florence Nightingale');
  const request = page.request;

  const create = async (name: string, definition: unknown) => {
    const res = await request.post('/api/pipelines', { data: { name, definition } });
    expect(res.status(), await res.text()).toBe(201);
    const id = ((await res.json()) as { id: string }).id;
    expect((await request.post(`/api/pipelines/${id}/deploy`, { data: {} })).status()).toBe(200);
    return id;
  };
  const alerts = await create('On-call alerts', {
    nodes: [
      { id: 'on_error', type: 'error-trigger', config: {}, position: at(0) },
      { id: 'out', type: 'pipeline-output', config: { key: 'alert' }, position: at(300) },
    ],
    connections: [{ source: 'on_error', source_port: 'event', target: 'out', target_port: 'value' }],
  });
  const feed = await create('ADT feed', {
    nodes: [
      { id: 'in', type: 'manual-trigger', config: {}, position: at(0) },
      { id: 'write', type: 'jsonata-transform', config: { expression: '$error("FHIR server down")' }, position: at(300) },
      { id: 'out', type: 'pipeline-output', config: {}, position: at(600) },
    ],
    connections: [
      { source: 'in', source_port: 'event', target: 'write', target_port: 'input' },
      { source: 'write', source_port: 'output', target: 'out', target_port: 'value' },
    ],
  });

  await page.goto(`/pipelines/${feed}`);
  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(page.getByLabel('Error pipeline')).toHaveValue('');
  await page.getByLabel('Error pipeline').selectOption({ label: 'On-call alerts' });
  await page.getByLabel('Alert window (minutes)').fill('5');
  await page.getByRole('button', { name: 'Save alerts' }).click();
  await expect(page.getByText('Alert settings saved')).toBeVisible();
  await shot(page, 'editor-settings');
  const saved = (await (await request.get(`/api/pipelines/${feed}/alerts`)).json()) as { error_pipeline_id: string; window_seconds: number };
  expect(saved).toMatchObject({ error_pipeline_id: alerts, window_seconds: 300 });

  // a test run fails without alerting; a production run's failure starts the error pipeline
  expect((await request.post('/api/execute', { data: { pipeline_id: feed, inputs: {}, test_mode: true } })).status()).toBe(200);
  const run = await request.post('/api/execute', { data: { pipeline_id: feed, inputs: {} } });
  expect(((await run.json()) as { status: string }).status).toBe('failed');
  await expect
    .poll(async () => ((await (await request.get(`/api/executions?pipeline_id=${alerts}`)).json()) as { executions: { status: string }[] }).executions)
    .toEqual([expect.objectContaining({ status: 'completed', trigger: 'error' })]);

  await page.getByRole('link', { name: 'Dashboard' }).click();
  const failing = page.getByRole('region', { name: 'Failing now' });
  await expect(failing).toBeVisible();
  await expect(failing.getByTestId('failing-now')).toHaveCount(1);
  await expect(failing.getByRole('link', { name: 'ADT feed' })).toHaveAttribute('href', `/executions?pipeline=${feed}&status=failed`);
  await expect(failing.getByText('1 failed in the last hour')).toBeVisible();
  await shot(page, 'dashboard');
  expect(problems).toEqual([]);
});
