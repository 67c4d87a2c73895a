import { expect, test, type Page } from '@playwright/test';
import { signUp } from './support';

/**
 * What a trigger listens on, shown where it is configured: the webhook trigger's URL and a ready curl (that
 * works once deployed), the schedule trigger's next five run times. UI_SHOTS=1 saves /tmp/triggers-*.png.
 */

async function shot(page: Page, name: string) {
  if (process.env.UI_SHOTS) await page.screenshot({ path: `/tmp/triggers-${name}.png` });
}

const withTrigger = (type: string, config: Record<string, unknown>) => ({
  nodes: [
    { id: 'start', type, config, position: { x: 0, y: 0 } },
    { id: 'out', type: 'pipeline-output', config: {}, position: { x: 320, y: 0 } },
  ],
  connections: [{ source: 'start', source_port: 'event', target: 'out', target_port: 'value' }],
});

test('webhook URL with a working curl, and a schedule’s next runs, in the trigger’s panel', async ({ page }) => {
  await signUp(page, 'Elizabeth Blackwell');

  const create = async (name: string, definition: unknown) =>
    ((await (await page.request.post('/api/pipelines', { data: { name, definition } })).json()) as { id: string }).id;
  const hook = await create('Lab results in', withTrigger('webhook-trigger', {}));
  const nightly = await create('Nightly export', withTrigger('schedule-trigger', { cron: '30 2 * * *', timezone: 'America/Chicago' }));

  await page.goto(`/pipelines/${hook}`);
  await page.locator('.react-flow__node[data-id="start"]').click();
  const panel = page.getByRole('region', { name: 'Node configuration' });
  await expect(panel.getByText('Deploy the pipeline to accept calls')).toBeVisible();
  const url = panel.getByRole('textbox', { name: 'Webhook URL' });
  await expect(url).toHaveValue(new RegExp(`/api/webhooks/${hook}$`));
  await expect(panel.locator('pre').first()).toContainText(`curl -X POST '${await url.inputValue()}'`);
  await shot(page, 'webhook');

  // the URL is the one that works: deployed, a POST to it with a key starts a run
  expect((await page.request.post(`/api/pipelines/${hook}/deploy`)).status()).toBe(200);
  const me = (await (await page.request.get('/api/trpc/account.me')).json()) as { result: { data: { organization: { id: string } } } };
  const key = (await (await page.request.post('/api/trpc/keys.create', { data: { name: 'webhook test', scopes: ['execute'] } })).json()) as {
    result: { data: { key: string } };
  };
  const sent = await page.request.post(await url.inputValue(), {
    headers: { authorization: `Bearer ${key.result.data.key}`, 'x-organization-id': me.result.data.organization.id },
    data: { resourceType: 'Patient' },
  });
  expect(sent.status()).toBe(202);
  await page.reload();
  await page.locator('.react-flow__node[data-id="start"]').click();
  await expect(panel.getByText('Deploy the pipeline to accept calls')).toBeHidden();

  await page.goto(`/pipelines/${nightly}`);
  await page.locator('.react-flow__node[data-id="start"]').click();
  const next = panel.getByRole('list', { name: 'Next runs' }).getByRole('listitem');
  await expect(next).toHaveCount(5);
  // 02:30 in Chicago each time, one day apart
  await expect(next.first()).toContainText(/02:30|2:30/);
  await expect(panel.getByText('Schedules run only while the pipeline is deployed.')).toBeVisible();
  await shot(page, 'schedule');
});
