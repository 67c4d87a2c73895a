import { expect, test, type Page } from '@playwright/test';
import { signUp } from './support';

/**
 * The audit log (issue 30 §3): viewing a run's outputs in the browser adds an entry naming the user; Settings → Audit
 * log shows it, filters to the reads of run data, and exports FHIR AuditEvents. UI_SHOTS=1 saves /tmp/audit-*.png.
 */

async function shot(page: Page, name: string) {
  if (process.env.UI_SHOTS) await page.screenshot({ path: `/tmp/audit-${name}.png`, fullPage: true });
}

test('audit log: opening a run’s data in the browser is recorded with the user’s name, and exported as FHIR', async ({ page }) => {
  test.setTimeout(180_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  const { email } = await signUp(page, 'Florence Nightingale');

  // a pipeline and a test run, made over the REST API with the browser's session
  const created = await page.request.post('/api/pipelines', {
    data: {
      name: 'Ward admissions',
      definition: {
        nodes: [
          { id: 'in', type: 'manual-trigger', config: { fields: { patient: 'json' } }, position: { x: 0, y: 0 } },
          { id: 'out', type: 'pipeline-output', config: { key: 'patient' }, position: { x: 260, y: 0 } },
        ],
        connections: [{ source: 'in', source_port: 'patient', target: 'out', target_port: 'value' }],
      },
    },
  });
  expect(created.status()).toBe(201);
  const pipeline = await created.json();
  const run = await (
    await page.request.post('/api/execute', { data: { pipeline_id: pipeline.id, inputs: { patient: { name: 'Scutari' } }, test_mode: true } })
  ).json();

  // the person opens the run and looks at its outputs
  await page.goto(`/executions/${run.execution_id}`);
  await expect(page.getByText('Scutari').first()).toBeVisible();

  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page).toHaveURL(/\/settings\/audit-log$/);
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Audit log' });
  const readRow = table.getByRole('row').filter({ hasText: 'execution.read' }).first();
  await expect(readRow).toContainText(email);
  await expect(readRow).toContainText('web app');
  await expect(readRow.getByRole('link', { name: run.execution_id })).toHaveAttribute('href', `/executions/${run.execution_id}`);
  await expect(table.getByRole('row').filter({ hasText: 'pipeline.create' })).toContainText('Ward admissions');
  await expect(table).not.toContainText('Scutari');
  await shot(page, 'log');

  // only the reads of run data
  await page.getByLabel('Action').selectOption({ label: 'Reads of run data' });
  await expect(table.getByRole('row').filter({ hasText: 'pipeline.create' })).toHaveCount(0);
  await expect(table.getByRole('row').filter({ hasText: 'execution.read' }).first()).toBeVisible();
  await shot(page, 'reads');

  // the export, as the hospital's audit store would take it
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export FHIR AuditEvents' }).click();
  const file = await download;
  const text = await (await file.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8'));
  const events = text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(events.length).toBeGreaterThan(0);
  expect(events.every((e) => e.resourceType === 'AuditEvent' && e.subtype[1].code === 'execution.read')).toBe(true);
  expect(events[0].agent[0].who.display).toBe(email);
  expect(problems).toEqual([]);
});
