import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { signUp } from './support';

/**
 * The executions pages end to end: runs made over the REST API (with the browser's session) appear in
 * /executions with their stats and errors, filter by status through the URL, and open on a per-node
 * timeline whose rows show each node's data. UI_SHOTS=1 also saves screenshots to /tmp/runs-*.png.
 */

async function shot(page: Page, name: string) {
  if (process.env.UI_SHOTS) await page.screenshot({ path: `/tmp/runs-${name}.png`, fullPage: true });
}

type Def = {
  nodes: Array<{ id: string; type: string; config?: Record<string, unknown>; settings?: Record<string, unknown> }>;
  connections: Array<[string, string, string, string]>;
};

async function createPipeline(request: APIRequestContext, name: string, def: Def): Promise<string> {
  const res = await request.post('/api/pipelines', {
    data: {
      name,
      definition: {
        nodes: def.nodes.map((n, i) => ({ ...n, config: n.config ?? {}, position: { x: i * 260, y: 0 } })),
        connections: def.connections.map(([source, source_port, target, target_port]) => ({ source, source_port, target, target_port })),
      },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function execute(request: APIRequestContext, pipelineId: string, inputs: Record<string, unknown>) {
  const res = await request.post('/api/execute', { data: { pipeline_id: pipelineId, inputs, test_mode: true } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { execution_id: string; status: string; error?: { message: string } };
}

/** manual-trigger → jsonata-transform → pipeline-output, with the given expression. */
function linear(expression: string): Def {
  return {
    nodes: [
      { id: 'in', type: 'manual-trigger' },
      { id: 't', type: 'jsonata-transform', config: { expression } },
      { id: 'out', type: 'pipeline-output' },
    ],
    connections: [
      ['in', 'event', 't', 'input'],
      ['t', 'output', 'out', 'value'],
    ],
  };
}

function rowOf(page: Page, id: string): Locator {
  return page.locator(`tr[data-run-id="${id}"]`);
}

test('runs list, stats, status filter, and the per-node timeline of a run', async ({ page }) => {
  test.setTimeout(120_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.context().on('request', (r) => {
    const url = new URL(r.url());
    if (url.protocol.startsWith('http') && !['127.0.0.1', 'localhost'].includes(url.hostname)) problems.push(`outside request: ${r.url()}`);
  });

  // sign up; the executions page starts empty and says how runs appear
  const { stamp } = await signUp(page, 'Florence Nightingale', 'florence', { width: 1440, height: 1000 });
  await page.getByRole('link', { name: 'Executions' }).click();
  await expect(page).toHaveURL(/\/executions$/);
  await expect(page.getByRole('heading', { name: 'Executions', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No executions yet' })).toBeVisible();
  await expect(page.getByText('POST /api/execute')).toBeVisible();
  await shot(page, 'empty');

  // pipelines and runs over the REST API, with the browser's session
  const request = page.request;
  const echoName = `Echo ${stamp}`;
  const echo = await createPipeline(request, echoName, linear('$'));
  const failing = await createPipeline(request, `Failing ${stamp}`, linear('$error("boom")'));
  const fanOut = await createPipeline(request, `Fan-out ${stamp}`, {
    nodes: [
      { id: 'in', type: 'manual-trigger' },
      { id: 'sum', type: 'jsonata-transform', config: { expression: '$sum([1..60000])' } },
      { id: 'count', type: 'jsonata-transform', config: { expression: '$count([1..60000][$ % 2 = 0])' } },
      { id: 'join', type: 'merge' },
      { id: 'out', type: 'pipeline-output' },
    ],
    connections: [
      ['in', 'event', 'sum', 'input'],
      ['in', 'event', 'count', 'input'],
      ['sum', 'output', 'join', 'in1'],
      ['count', 'output', 'join', 'in2'],
      ['join', 'merged', 'out', 'value'],
    ],
  });
  const first = await execute(request, echo, { patient: 'Ada', visit: 1 });
  const second = await execute(request, echo, { patient: 'Grace', visit: 2 });
  expect([first.status, second.status]).toEqual(['completed', 'completed']);
  const failed = await execute(request, failing, { patient: 'Alan' });
  expect(failed.status).toBe('failed');
  expect(failed.error?.message).toContain('boom');
  const parallel = await execute(request, fanOut, {});
  expect(parallel.status).toBe('completed');

  // the list: every run with its pipeline, trigger, test tag, and the failed one's error
  await page.reload();
  await expect(page.locator('tbody tr')).toHaveCount(4);
  await expect(page.getByText('Showing 1–4 of 4')).toBeVisible();
  await expect(rowOf(page, first.execution_id)).toContainText(echoName);
  await expect(rowOf(page, first.execution_id)).toContainText('Completed');
  await expect(rowOf(page, first.execution_id)).toContainText('API');
  await expect(rowOf(page, first.execution_id)).toContainText('Test');
  await expect(rowOf(page, failed.execution_id)).toContainText('Failed');
  await expect(rowOf(page, failed.execution_id).getByTestId('run-error')).toContainText('boom');
  const stats = page.getByRole('group', { name: 'Execution statistics' });
  await expect(stats).toContainText('75%');
  await expect(stats).toContainText('jsonata-transform');
  await shot(page, 'list');

  // filter by status: kept in the URL
  await page.getByLabel('Filter by status').selectOption('failed');
  await expect(page).toHaveURL(/\?status=failed$/);
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await expect(rowOf(page, failed.execution_id)).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Filter by status')).toHaveValue('failed');
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await page.getByLabel('Filter by pipeline').selectOption(echo);
  await expect(page).toHaveURL(new RegExp(`\\?status=failed&pipeline=${echo}$`));
  await expect(page.getByRole('heading', { name: 'No runs match these filters' })).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await expect(page).toHaveURL(/\/executions$/);
  await expect(page.locator('tbody tr')).toHaveCount(4);

  // find the run for a patient by what was sent, then narrow by date
  await page.getByLabel('Find in inputs and outputs').fill('grace');
  await page.getByLabel('Find in inputs and outputs').press('Enter');
  await expect(page).toHaveURL(/\?q=grace$/);
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await expect(rowOf(page, second.execution_id)).toBeVisible();
  await shot(page, 'searched');
  const today = new Date();
  const day = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  await page.getByLabel('Runs from').fill(day(today));
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await page.getByLabel('Runs from').fill(day(new Date(today.getTime() + 2 * 86_400_000)));
  await expect(page.getByRole('heading', { name: 'No runs match these filters' })).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await expect(page.locator('tbody tr')).toHaveCount(4);
  await page.getByLabel('Filter by status').selectOption('failed');
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await shot(page, 'filtered');

  // the failed run: its error, the failing node picked on the timeline
  await rowOf(page, failed.execution_id).getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/executions/${failed.execution_id}$`));
  await expect(page.getByRole('heading', { name: /Execution/, level: 1 })).toBeVisible();
  await expect(page.getByTestId('run-error').first()).toContainText('boom');
  await expect(page.locator('[data-testid="timeline-bar"][data-node-id="t"]')).toHaveAttribute('data-status', 'failed');
  await expect(page.getByTestId('node-error')).toContainText('boom');
  await shot(page, 'detail-failed');
  // only the failing node is failed: the output after it did not run, and says why
  await expect(page.locator('[data-testid="timeline-row"][data-row-id="out"]')).toContainText('did not run: an upstream node failed');
  const outcome = await page.request.get(`/api/executions/${failed.execution_id}`);
  const nodes = ((await outcome.json()) as { nodes: { node_id: string; status: string; reason: string | null }[] }).nodes;
  expect(nodes.find((n) => n.node_id === 'out')).toMatchObject({ status: 'skipped', reason: 'upstream_failed' });
  expect(nodes.filter((n) => n.status === 'failed').map((n) => n.node_id)).toEqual(['t']);

  // a completed run: one bar per node, the picked row's outputs below
  await page.goto(`/executions/${first.execution_id}`);
  const bars = page.getByTestId('timeline-bar');
  await expect(bars).toHaveCount(3);
  for (const id of ['in', 't', 'out']) {
    await expect(page.locator(`[data-testid="timeline-bar"][data-node-id="${id}"]`)).toHaveAttribute('data-status', 'completed');
  }
  await expect(page.getByRole('link', { name: echoName })).toHaveAttribute('href', `/pipelines/${echo}`);
  await page.locator('[data-row-id="t"]').click();
  await expect(page.locator('[data-row-id="t"]')).toHaveAttribute('aria-selected', 'true');
  const panel = page.getByTestId('node-panel');
  await expect(panel).toContainText('jsonata-transform');
  await expect(panel.getByLabel('Node outputs')).toContainText('"patient": "Ada"');
  await expect(page.getByLabel('Execution outputs')).toContainText('"visit": 1');
  await shot(page, 'detail');

  // branches that ran side by side overlap on the timeline
  await page.goto(`/executions/${parallel.execution_id}`);
  await expect(page.getByTestId('timeline-bar')).toHaveCount(5);
  await page.locator('[data-row-id="join"]').click();
  await expect(page.getByTestId('node-panel').getByLabel('Node outputs')).toContainText('"in1": 1800030000');
  await shot(page, 'detail-parallel');
  const box = async (id: string) => (await page.locator(`[data-testid="timeline-bar"][data-node-id="${id}"]`).boundingBox())!;
  const [sum, count, join] = [await box('sum'), await box('count'), await box('join')];
  expect(join.x, 'merge starts after both branches').toBeGreaterThanOrEqual(Math.max(sum.x, count.x));
  expect(Math.min(sum.x + sum.width, count.x + count.width), 'the branches overlap').toBeGreaterThan(Math.max(sum.x, count.x));

  // a retry from the transform: a new run linked to its original
  await page.goto(`/executions/${first.execution_id}`);
  await page.locator('[data-row-id="t"]').click();
  await page.getByRole('button', { name: 'Retry from here' }).click();
  await page.getByRole('dialog', { name: 'Retry from “t”' }).getByRole('button', { name: 'Retry' }).click();
  await expect(page).not.toHaveURL(new RegExp(`/executions/${first.execution_id}$`));
  await expect(page.getByRole('link', { name: first.execution_id.slice(0, 8) })).toHaveAttribute('href', `/executions/${first.execution_id}`);
  await expect(page.getByTestId('timeline-bar')).toHaveCount(2);
  await expect(page.locator('[data-row-id="in"]')).toContainText('reused from the original run');
  await expect(page.getByTestId('timeline-row')).toHaveCount(3);
  await expect(page.getByTestId('timeline-row').first()).toHaveAttribute('data-row-id', 't');
  await shot(page, 'detail-retry');

  // an async run that retries with back-off: the pages follow it while it is under way, without a reload
  const flakyDef = linear('$error("flaky")');
  flakyDef.nodes[1]!.settings = { retry: { max_attempts: 3, backoff_ms: 1500 } };
  const flaky = await createPipeline(request, `Flaky ${stamp}`, flakyDef);
  const queued = await request.post('/api/execute', { data: { pipeline_id: flaky, inputs: { patient: 'Mary' }, test_mode: true, async: true } });
  expect(queued.status(), await queued.text()).toBe(200);
  const flakyId = ((await queued.json()) as { execution_id: string }).execution_id;
  await page.goto(`/executions/${flakyId}`);
  const status = page.getByTestId('run-status');
  await expect(status).toHaveAttribute('data-status', /queued|running/);
  await expect(page.getByTestId('timeline-row')).toHaveCount(3); // nodes without a record yet show as pending rows
  await shot(page, 'detail-live');
  await expect(status).toHaveAttribute('data-status', 'failed', { timeout: 30_000 });
  await expect(page.locator('[data-testid="timeline-bar"][data-node-id="t"]')).toHaveAttribute('data-status', 'failed');
  await expect(page.getByTestId('node-panel')).toContainText('3 attempts');
  await page.getByRole('link', { name: 'Executions' }).first().click();
  await expect(rowOf(page, flakyId)).toContainText('API (async)');
  await expect(rowOf(page, flakyId).getByTestId('run-error')).toContainText('flaky');

  expect(problems, 'uncaught errors or outside requests').toEqual([]);
});
