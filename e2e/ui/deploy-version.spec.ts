import { expect, test, type Page } from '@playwright/test';
import { signUp } from './support';

/**
 * Deploy publishes one version: a deployed pipeline edited and saved in the editor keeps answering production
 * runs with its live version ("v1 live · v2 saved", the changes between them a click away) until it is published.
 * UI_SHOTS=1 saves screenshots to /tmp/deploy-version-*.png.
 */

async function shot(page: Page, name: string) {
  if (process.env.UI_SHOTS) await page.screenshot({ path: `/tmp/deploy-version-${name}.png` });
}

// in (manual-trigger, field patient: json) ──patient──▶ pick (jsonata: family name) ──▶ out (key "family")
const definition = {
  nodes: [
    { id: 'in', type: 'manual-trigger', config: { fields: { patient: 'json' } }, position: { x: 0, y: 0 } },
    { id: 'pick', type: 'jsonata-transform', config: { expression: 'name[0].family' }, position: { x: 280, y: 0 } },
    { id: 'out', type: 'pipeline-output', config: { key: 'family' }, position: { x: 560, y: 0 } },
  ],
  connections: [
    { source: 'in', source_port: 'patient', target: 'pick', target_port: 'input' },
    { source: 'pick', source_port: 'output', target: 'out', target_port: 'value' },
  ],
};
const inputs = { patient: { resourceType: 'Patient', name: [{ family: 'Kshlerin' }] } };

test('a saved edit of a deployed pipeline is not live until it is published', async ({ page }) => {
  test.setTimeout(180_000);
  await signUp(page, 'Ada Lovelace');
  await page.setViewportSize({ width: 1680, height: 1000 });
  const created = await page.request.post('/api/pipelines', { data: { name: `Live feed ${Date.now()}`, definition } });
  const { id } = (await created.json()) as { id: string };
  expect((await page.request.post(`/api/pipelines/${id}/deploy`)).status()).toBe(200);
  const runLive = async () => {
    const res = await page.request.post('/api/execute', { data: { pipeline_id: id, inputs } });
    expect(res.status()).toBe(200);
    return ((await res.json()) as { outputs: Record<string, unknown> }).outputs;
  };
  expect(await runLive()).toEqual({ family: 'Kshlerin' });

  // edit the deployed pipeline in the editor: the output is renamed, then saved as v2
  await page.goto(`/pipelines/${id}`);
  await expect(page.getByText('Deployed', { exact: true })).toBeVisible();
  await expect(page.getByTestId('live-version')).toHaveCount(0);
  await page.locator('.react-flow__node[data-id="out"]').click();
  const config = page.getByRole('region', { name: 'Node configuration' });
  await config.getByRole('textbox', { name: /^key/i }).fill('surname');
  await expect(page.getByTestId('unsaved')).toBeVisible();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('unsaved')).toHaveCount(0);

  // saved, not live: production runs still get v1's answer
  const live = page.getByTestId('live-version');
  await expect(live).toHaveText('v1 live · v2 saved');
  expect(await runLive()).toEqual({ family: 'Kshlerin' });
  const got = (await (await page.request.get(`/api/pipelines/${id}`)).json()) as { version: number; deployed_version: number };
  expect(got).toMatchObject({ version: 2, deployed_version: 1 });
  await shot(page, 'header');
  await page.getByRole('button', { name: 'Version history' }).click();
  await expect(page.getByTestId('version-1')).toContainText('live');
  await expect(page.getByTestId('version-2')).not.toContainText('live');

  // the changes not live yet, and the one action that publishes them
  await live.click();
  const dialog = page.getByRole('dialog', { name: 'Changes not live yet: v1 → v2' });
  await expect(dialog.getByTestId('version-diff')).toContainText('Changed out: config (key)');
  await shot(page, 'diff');
  await dialog.getByRole('button', { name: 'Publish v2' }).click();
  await expect(dialog).toBeHidden();
  await expect(live).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Publish v2' })).toHaveCount(0);
  await expect(page.getByText('Deployed', { exact: true })).toBeVisible();
  await expect(page.getByTestId('version-2')).toContainText('live');

  // the new version answers production runs
  expect(await runLive()).toEqual({ surname: 'Kshlerin' });

  // the list shows the live version while a newer one is saved
  const saved = await page.request.put(`/api/pipelines/${id}`, { data: { description: 'v3, not published' } });
  expect(saved.status()).toBe(200);
  await page.goto('/pipelines');
  await expect(page.getByRole('row').filter({ hasText: 'Live feed' })).toContainText('v3v2 live');
  await shot(page, 'list');
});
