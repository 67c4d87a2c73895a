import { expect, test, type Locator, type Page } from '@playwright/test';
import { fillCode, settledBox, signUp } from './support';

/**
 * The pipeline editor end to end: build manual-trigger → jsonata-transform → pipeline-output by drag and
 * drop, connect ports, configure, save, run in test mode, step through with edited outputs, retry from
 * the middle node; then the canvas habits, drafts, versions, conflicts and deploy. UI_SHOTS=1 also saves
 * screenshots to /tmp/editor-*.png.
 */

async function shot(page: Page, name: string) {
  if (process.env.UI_SHOTS) await page.screenshot({ path: `/tmp/editor-${name}.png` });
}

function node(page: Page, id: string): Locator {
  return page.locator(`.react-flow__node[data-id="${id}"]`);
}

function card(page: Page, id: string): Locator {
  return page.getByTestId(`node-${id}`);
}

function handle(page: Page, id: string, kind: 'source' | 'target', port: string): Locator {
  return node(page, id).locator(`.react-flow__handle.${kind}[data-handleid="${port}"]`);
}

/** Drags a connection from an output to an input; `midway` runs while the mouse is still down. */
async function connect(page: Page, from: [string, string], to: [string, string], midway?: () => Promise<void>) {
  const a = await settledBox(handle(page, from[0], 'source', from[1]));
  const b = await settledBox(handle(page, to[0], 'target', to[1]));
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
  await midway?.();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 5 });
  await page.mouse.up();
}

async function dropFromPalette(page: Page, type: string, x: number, y: number) {
  await page.locator(`[data-palette-item="${type}"]`).dragTo(page.getByTestId('flow-canvas'), { targetPosition: { x, y } });
}

async function signUpAndOpenNewPipeline(page: Page, name: string) {
  await signUp(page, 'Grace Hopper', 'grace', { width: 1680, height: 1000 });
  await page.getByRole('button', { name: 'New pipeline' }).click();
  const createDialog = page.getByRole('dialog', { name: 'New pipeline' });
  await createDialog.getByLabel('Name').fill(name);
  // creating opens the editor on the new pipeline
  await createDialog.getByRole('button', { name: 'Create pipeline' }).click();
  await expect(page).toHaveURL(/\/pipelines\/[0-9a-f-]+$/);
  await expect(page.getByRole('heading', { name })).toBeVisible();
}

/** Uncaught page errors, and any request to a host other than this machine (the app is offline by design). */
function watchErrors(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.context().on('request', (r) => {
    const url = new URL(r.url());
    if (url.protocol.startsWith('http') && !['127.0.0.1', 'localhost'].includes(url.hostname)) problems.push(`outside request: ${r.url()}`);
  });
  return problems;
}

test('build, save, run, step through and retry a pipeline in the editor', async ({ page }) => {
  test.setTimeout(120_000);
  const crashes = watchErrors(page);
  await signUpAndOpenNewPipeline(page, `Greeting ${Date.now()}`);
  await shot(page, 'empty');

  // build: three nodes from the palette
  await dropFromPalette(page, 'manual-trigger', 140, 180);
  await expect(card(page, 'manual-trigger-1')).toBeVisible();
  await page.getByLabel('Search nodes').fill('jsonata');
  await dropFromPalette(page, 'jsonata-transform', 410, 260);
  await page.getByLabel('Search nodes').fill('');
  await dropFromPalette(page, 'pipeline-output', 680, 180);
  await expect(card(page, 'jsonata-transform-1')).toBeVisible();
  await expect(card(page, 'pipeline-output-1')).toBeVisible();
  // the transform has no expression yet: the validator's error is on the node
  await expect(card(page, 'jsonata-transform-1')).toHaveAttribute('data-invalid', 'true');
  await connect(page, ['manual-trigger-1', 'event'], ['jsonata-transform-1', 'input']);
  await connect(page, ['jsonata-transform-1', 'output'], ['pipeline-output-1', 'value']);
  await expect(page.locator('.react-flow__edge')).toHaveCount(2);
  await page.getByRole('button', { name: 'Auto-layout' }).click();
  await expect
    .poll(async () => ((await card(page, 'manual-trigger-1').boundingBox())?.x ?? 0) < ((await card(page, 'jsonata-transform-1').boundingBox())?.x ?? 0))
    .toBe(true);

  // configure the transform (clicked again should the view still be moving from the layout: the click then lands elsewhere)
  const config = page.getByRole('region', { name: 'Node configuration' });
  await expect(async () => {
    await card(page, 'jsonata-transform-1').click();
    await expect(config).toContainText('JSONata transform', { timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  await config.getByLabel('expression').fill('{"greeting": "Hello " & name}');
  await expect(page.getByTestId('validation-status')).toHaveText(/Valid/);
  await expect(page.getByTestId('unsaved')).toBeVisible();
  await shot(page, 'built');

  // save: a new version
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('unsaved')).toBeHidden();
  await expect(page.getByTitle('Saved version the canvas is based on')).toHaveText('v2');

  // test run with JSON inputs: every node completes
  await page.getByRole('button', { name: 'Test run' }).click();
  const runDialog = page.getByRole('dialog', { name: 'Run in test mode' });
  await fillCode(runDialog, '{"name": "Ada"}');
  await shot(page, 'run-dialog');
  await runDialog.getByRole('button', { name: 'Run test' }).click();
  for (const id of ['manual-trigger-1', 'jsonata-transform-1', 'pipeline-output-1']) {
    await expect(card(page, id)).toHaveAttribute('data-status', 'completed');
  }
  const execution = page.getByRole('region', { name: 'Execution' });
  await expect(execution.getByTestId('execution-status')).toHaveText('completed');
  await execution.getByTestId('exec-node-jsonata-transform-1').click();
  await expect(execution.getByLabel('Node outputs')).toContainText('Hello Ada');
  await shot(page, 'run');

  // step through: run the trigger, give the transform outputs by hand, run the output
  await page.getByRole('tab', { name: 'Debugger' }).click();
  await expect(page.getByRole('group', { name: 'Step inputs' })).toContainText('Ada');
  await page.getByRole('button', { name: 'Start stepping' }).click();
  const stepPanel = page.getByTestId('step-panel');
  await expect(card(page, 'manual-trigger-1')).toHaveAttribute('data-current', 'true');
  await expect(card(page, 'manual-trigger-1')).toHaveAttribute('data-status', 'waiting');
  await expect(card(page, 'jsonata-transform-1')).toHaveAttribute('data-status', 'pending');
  await stepPanel.getByRole('button', { name: 'Run node' }).click();
  await expect(card(page, 'manual-trigger-1')).toHaveAttribute('data-status', 'completed');
  await expect(card(page, 'jsonata-transform-1')).toHaveAttribute('data-current', 'true');
  await expect(stepPanel.getByLabel('Current node inputs')).toContainText('"name": "Ada"');
  await fillCode(stepPanel.getByRole('group', { name: 'Node outputs' }), '{"output": {"greeting": "Edited by hand"}}');
  await shot(page, 'step');
  await stepPanel.getByRole('button', { name: 'Advance with these outputs' }).click();
  await expect(card(page, 'jsonata-transform-1')).toHaveAttribute('data-status', 'completed');
  await expect(card(page, 'pipeline-output-1')).toHaveAttribute('data-current', 'true');
  await expect(stepPanel.getByLabel('Current node inputs')).toContainText('Edited by hand');
  await stepPanel.getByRole('button', { name: 'Run node' }).click();
  await expect(stepPanel).toContainText('Step-through completed');
  for (const id of ['manual-trigger-1', 'jsonata-transform-1', 'pipeline-output-1']) {
    await expect(card(page, id)).toHaveAttribute('data-status', 'completed');
  }
  await expect(execution.getByTestId('execution-status')).toHaveText('completed');
  await execution.getByTestId('exec-node-pipeline-output-1').click();
  await execution.getByRole('tab', { name: 'Inputs' }).click();
  await expect(execution.getByLabel('Node inputs')).toContainText('Edited by hand');

  // retry from the middle node: a new execution re-runs the transform with its stored inputs
  await execution.getByTestId('exec-node-jsonata-transform-1').click();
  await execution.getByRole('button', { name: 'Retry from here' }).click();
  const retryDialog = page.getByRole('dialog', { name: 'Retry from “jsonata-transform-1”' });
  await retryDialog.getByRole('button', { name: 'Retry' }).click();
  await expect(retryDialog).toBeHidden();
  await expect(execution.getByRole('button', { name: /retry of/ })).toBeVisible();
  await expect(execution.getByTestId('execution-status')).toHaveText('completed');
  for (const id of ['manual-trigger-1', 'jsonata-transform-1', 'pipeline-output-1']) {
    await expect(card(page, id)).toHaveAttribute('data-status', 'completed');
  }
  await execution.getByTestId('exec-node-pipeline-output-1').click();
  await execution.getByRole('tab', { name: 'Inputs' }).click();
  await expect(execution.getByLabel('Node inputs')).toContainText('Hello Ada');
  await shot(page, 'retry');
  expect(crashes, 'uncaught errors or outside requests').toEqual([]);
});

test('canvas habits: typed connections, delete, undo/redo, copy/paste, drafts, versions, deploy', async ({ page }) => {
  test.setTimeout(120_000);
  const crashes = watchErrors(page);
  await signUpAndOpenNewPipeline(page, `Habits ${Date.now()}`);

  // keyboard: "/" focuses the palette search; Enter adds the first match
  // (off centre: an empty canvas has the copilot's describe box in its middle)
  await page.getByTestId('flow-canvas').click({ position: { x: 60, y: 60 } });
  await page.keyboard.press('/');
  await expect(page.getByLabel('Search nodes')).toBeFocused();
  await page.keyboard.type('manual trigger');
  await page.keyboard.press('Enter');
  await expect(card(page, 'manual-trigger-1')).toBeVisible();
  await page.getByLabel('Search nodes').fill('');
  await dropFromPalette(page, 'csv-parse', 680, 160);
  await dropFromPalette(page, 'pipeline-output', 680, 720);

  // a trigger meeting a text input is not refused (issue 28): while dragging, the input is not dimmed; dropped,
  // the trigger gains a "text" field and is connected from it; one undo takes both back
  await connect(page, ['manual-trigger-1', 'event'], ['csv-parse-1', 'text'], async () => {
    await expect(handle(page, 'csv-parse-1', 'target', 'text')).not.toHaveAttribute('data-refused', 'true');
  });
  await expect(page.locator('.react-flow__edge')).toHaveCount(1);
  await expect(page.getByText('Manual trigger now has an input "text" (text)')).toBeVisible();
  await expect(handle(page, 'manual-trigger-1', 'source', 'text')).toBeVisible();
  await page.keyboard.press('ControlOrMeta+z');
  await expect(page.locator('.react-flow__edge')).toHaveCount(0);
  await expect(handle(page, 'manual-trigger-1', 'source', 'text')).toHaveCount(0);
  await connect(page, ['manual-trigger-1', 'event'], ['pipeline-output-1', 'value']);
  await expect(page.locator('.react-flow__edge')).toHaveCount(1);
  // an input takes one connection
  await connect(page, ['csv-parse-1', 'rows'], ['pipeline-output-1', 'value']);
  await expect(page.locator('.react-flow__edge')).toHaveCount(1);

  // delete, undo, redo
  await card(page, 'csv-parse-1').click();
  await page.keyboard.press('Delete');
  await expect(card(page, 'csv-parse-1')).toHaveCount(0);
  await page.keyboard.press('ControlOrMeta+z');
  await expect(card(page, 'csv-parse-1')).toBeVisible();
  await page.keyboard.press('ControlOrMeta+Shift+z');
  await expect(card(page, 'csv-parse-1')).toHaveCount(0);
  // deleting a connected node takes its connection along; one undo brings both back
  await card(page, 'pipeline-output-1').click();
  await page.keyboard.press('Backspace');
  await expect(card(page, 'pipeline-output-1')).toHaveCount(0);
  await expect(page.locator('.react-flow__edge')).toHaveCount(0);
  await page.keyboard.press('ControlOrMeta+z');
  await expect(card(page, 'pipeline-output-1')).toBeVisible();
  await expect(page.locator('.react-flow__edge')).toHaveCount(1);

  // copy/paste: a second trigger, which the validator refuses
  await card(page, 'manual-trigger-1').click();
  await page.keyboard.press('ControlOrMeta+c');
  await page.keyboard.press('ControlOrMeta+v');
  await expect(card(page, 'manual-trigger-2')).toBeVisible();
  await expect(card(page, 'manual-trigger-2')).toHaveAttribute('data-invalid', 'true');
  await page.keyboard.press('Delete');
  await expect(card(page, 'manual-trigger-2')).toHaveCount(0);

  // unsaved changes survive a reload
  await expect(page.getByTestId('unsaved')).toBeVisible();
  await page.waitForTimeout(600); // the draft is written 350 ms after the last change
  await page.reload();
  await expect(page.getByTestId('draft-banner')).toContainText('Restored your unsaved changes');
  await expect(card(page, 'manual-trigger-1')).toBeVisible();
  await expect(page.locator('.react-flow__edge')).toHaveCount(1);
  await shot(page, 'draft');

  // save (v2), rename a node, save again (v3)
  await page.keyboard.press('ControlOrMeta+s');
  await expect(page.getByTitle('Saved version the canvas is based on')).toHaveText('v2');
  await expect(page.getByTestId('draft-banner')).toBeHidden();
  await card(page, 'pipeline-output-1').click();
  await page.getByRole('region', { name: 'Node configuration' }).getByLabel('Name', { exact: true }).fill('Result');
  await expect(card(page, 'pipeline-output-1')).toContainText('Result');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTitle('Saved version the canvas is based on')).toHaveText('v3');

  // auto-layout moves nodes; undo puts them back
  await page.getByRole('button', { name: 'Auto-layout' }).click();
  await expect(page.getByTestId('unsaved')).toBeVisible();
  await page.getByRole('button', { name: 'Undo (Ctrl+Z)' }).click();
  await expect(page.getByTestId('unsaved')).toBeHidden();

  // version history: diff v2 → v3, then restore v2 as v4
  await page.getByRole('tab', { name: 'Versions' }).click();
  await page.getByLabel('Compare from').selectOption('2');
  await page.getByLabel('Compare to').selectOption('3');
  await page.getByRole('button', { name: 'Diff' }).click();
  const diff = page.getByRole('dialog', { name: 'Changes from v2 to v3' });
  await expect(diff.getByTestId('version-diff')).toContainText('Changed pipeline-output-1: name');
  await shot(page, 'diff');
  await diff.getByRole('button', { name: 'Close dialog' }).click();
  await page.getByRole('button', { name: 'Restore version 2' }).click();
  await page.getByRole('dialog', { name: 'Restore version 2?' }).getByRole('button', { name: 'Restore as new version' }).click();
  await expect(page.getByTitle('Saved version the canvas is based on')).toHaveText('v4');
  await expect(card(page, 'pipeline-output-1')).not.toContainText('Result');
  await expect(page.getByTestId('version-4')).toContainText('current');
  await shot(page, 'versions');

  // someone else saves meanwhile: saving here is refused with VERSION_CONFLICT and the user chooses
  const other = await page.context().newPage();
  await other.setViewportSize({ width: 1680, height: 1000 });
  await other.goto(page.url());
  await card(other, 'pipeline-output-1').click();
  await other.getByRole('region', { name: 'Node configuration' }).getByLabel('Name', { exact: true }).fill('Theirs');
  await other.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(other.getByTitle('Saved version the canvas is based on')).toHaveText('v5');
  await other.close();
  await card(page, 'pipeline-output-1').click();
  await page.getByRole('region', { name: 'Node configuration' }).getByLabel('Name', { exact: true }).fill('Mine');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const conflict = page.getByRole('dialog', { name: 'Someone saved this pipeline meanwhile' });
  await expect(conflict).toContainText('is at version 5, not 4');
  await shot(page, 'conflict');
  await conflict.getByRole('button', { name: 'Save mine as the newest version' }).click();
  await expect(conflict).toBeHidden();
  await expect(page.getByTitle('Saved version the canvas is based on')).toHaveText('v6');

  // a queued test run: the canvas follows the worker
  await page.getByRole('button', { name: 'Test run' }).click();
  const runDialog = page.getByRole('dialog', { name: 'Run in test mode' });
  await runDialog.getByLabel('Run in the background queue').check();
  await runDialog.getByRole('button', { name: 'Run test' }).click();
  await expect(card(page, 'manual-trigger-1')).toHaveAttribute('data-status', 'completed', { timeout: 20_000 });
  await expect(card(page, 'pipeline-output-1')).toHaveAttribute('data-status', 'completed', { timeout: 20_000 });
  await expect(page.getByTestId('execution-status')).toHaveText('completed');

  // deploy and undeploy from the editor
  await page.getByRole('button', { name: 'Deploy', exact: true }).click();
  await expect(page.getByText('Deployed', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Undeploy' }).click();
  await expect(page.getByText('Deployed', { exact: true })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Deploy', exact: true })).toBeVisible();
  expect(crashes, 'uncaught errors or outside requests').toEqual([]);
});

test('a for-each body is edited as JSON and checked with the pipeline; a pipeline saved over REST opens unchanged', async ({ page }) => {
  test.setTimeout(120_000);
  const crashes = watchErrors(page);
  await signUpAndOpenNewPipeline(page, `Loop ${Date.now()}`);
  // saved the way a REST client sends it: no connection ids; the body has a typo in a type
  const body = {
    nodes: [
      { id: 'item', type: 'manual-trigger', config: { fields: { item: 'json' } } },
      { id: 'name', type: 'jsonata-transfrom', config: { expression: 'name[0].family' } },
      { id: 'out', type: 'pipeline-output', config: { key: 'family' } },
    ],
    connections: [
      { source: 'item', source_port: 'item', target: 'name', target_port: 'input' },
      { source: 'name', source_port: 'output', target: 'out', target_port: 'value' },
    ],
  };
  const definition = {
    nodes: [
      { id: 'in', type: 'manual-trigger', config: { fields: { patients: 'json' } }, position: { x: 0, y: 0 } },
      { id: 'each', type: 'for-each', config: { body }, position: { x: 320, y: 0 } },
      { id: 'out', type: 'pipeline-output', position: { x: 640, y: 0 } },
    ],
    connections: [
      { source: 'in', source_port: 'patients', target: 'each', target_port: 'items' },
      { source: 'each', source_port: 'results', target: 'out', target_port: 'value' },
    ],
  };
  const created = await page.request.post('/api/pipelines', { data: { name: `Families ${Date.now()}`, definition } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await page.goto(`/pipelines/${id}`);
  await expect(card(page, 'each')).toBeVisible();
  await expect(page.getByTestId('unsaved')).toHaveCount(0);
  await expect(card(page, 'each')).toContainText('Body › node "name": Unknown node type "jsonata-transfrom"');

  // fix the typo in the body's JSON: the problem goes, the change is unsaved until saved
  await node(page, 'each').click();
  const editor = page.getByRole('group', { name: 'body' });
  await fillCode(editor, JSON.stringify({ ...body, nodes: body.nodes.map((n) => (n.id === 'name' ? { ...n, type: 'jsonata-transform' } : n)) }));
  await expect(card(page, 'each')).not.toContainText('Unknown node type');
  await expect(page.getByTestId('unsaved')).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('unsaved')).toHaveCount(0);

  // it runs: one result per patient
  const run = await page.request.post('/api/execute', {
    data: { pipeline_id: id, test_mode: true, inputs: { patients: [{ name: [{ family: 'Medhurst46' }] }, { name: [{ family: 'Kshlerin' }] }] } },
  });
  expect(await run.json()).toMatchObject({ status: 'completed', outputs: { out: [{ family: 'Medhurst46' }, { family: 'Kshlerin' }] } });
  await shot(page, 'for-each');

  // without positions at all, the nodes would sit on top of each other: the editor lays them out
  const bare = { ...definition, nodes: definition.nodes.map(({ position: _, ...n }) => n) };
  const other = (await (await page.request.post('/api/pipelines', { data: { name: `Unplaced ${Date.now()}`, definition: bare } })).json()) as { id: string };
  await page.goto(`/pipelines/${other.id}`);
  await expect(page.getByText('Laid out automatically')).toBeVisible();
  const boxes = await Promise.all(['in', 'each', 'out'].map(async (n) => (await node(page, n).boundingBox())!));
  expect(boxes[0]!.x + boxes[0]!.width).toBeLessThanOrEqual(boxes[1]!.x);
  expect(boxes[1]!.x + boxes[1]!.width).toBeLessThanOrEqual(boxes[2]!.x);
  await expect(page.getByTestId('unsaved')).toBeVisible();
  expect(crashes).toEqual([]);
});

test('the canvas gets the width at 1440×900: navigation collapsed in the editor, a dropped node never covers another', async ({ page }) => {
  const crashes = watchErrors(page);
  await signUpAndOpenNewPipeline(page, `Roomy ${Date.now()}`);
  await page.setViewportSize({ width: 1440, height: 900 });
  const canvas = page.getByTestId('flow-canvas');
  const nav = page.getByRole('button', { name: 'Expand navigation' });
  // the editor starts with the navigation as an icon rail; its links keep their names
  await expect(nav).toBeVisible();
  await expect(page.getByRole('link', { name: 'Executions' })).toBeVisible();
  const narrow = (await canvas.boundingBox())!.width;
  expect(narrow).toBeGreaterThan(700);
  await nav.click();
  await expect(page.getByRole('button', { name: 'Collapse navigation' })).toBeVisible();
  await expect.poll(async () => (await canvas.boundingBox())!.width).toBeLessThan(narrow - 150);
  // the choice is remembered
  await page.reload();
  await expect(page.getByRole('button', { name: 'Collapse navigation' })).toBeVisible();
  await page.getByRole('button', { name: 'Collapse navigation' }).click();
  await expect.poll(async () => (await canvas.boundingBox())!.width).toBeGreaterThan(700);

  // two nodes dropped on the same spot: the second goes below the first
  await dropFromPalette(page, 'merge', 300, 200);
  await dropFromPalette(page, 'filter', 300, 200);
  const a = (await card(page, 'merge-1').boundingBox())!;
  const b = (await card(page, 'filter-1').boundingBox())!;
  expect(b.y).toBeGreaterThanOrEqual(a.y + a.height);
  // its documentation is rendered, not shown as markdown source
  const docs = page.getByRole('region', { name: 'Node configuration' });
  await expect(docs.locator('strong code', { hasText: 'kept' })).toBeVisible();
  expect(await docs.innerText()).not.toMatch(/`|\*\*/);
  await shot(page, 'roomy');
  expect(crashes).toEqual([]);
});

test('an unknown address shows a branded 404 page; the app has an icon', async ({ page }) => {
  const res = await page.goto('/no-such-page');
  expect(res!.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'This page does not exist' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to pipelines' }).click();
  await expect(page).toHaveURL(/\/sign-in|\/pipelines/);
  const icon = await page.request.get((await page.locator('link[rel="icon"]').first().getAttribute('href')) ?? '/icon.svg');
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toContain('image/svg+xml');
});
