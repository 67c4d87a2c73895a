import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { fillCode, settledBox, signUp } from './support';

/**
 * Issue 28, the first hour in the editor at 1440×900: the obvious first pipeline (trigger → parse → to FHIR →
 * validate → de-identify → output) connects without a refusal, fits in view with readable nodes, runs on a pasted
 * ADT and deploys; forms and findings speak plainly; panels fold and stay folded. UI_SHOTS=1 saves
 * screenshots to /tmp/editor-shots/.
 */

const ADT = readFileSync('/work/shared/data/hl7v2/messages/ADT-A01-01.hl7', 'utf8').trim();

async function shot(page: Page, name: string) {
  if (process.env.UI_SHOTS) await page.screenshot({ path: `/tmp/editor-shots/first-hour-${name}.png` });
}

const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);
const card = (page: Page, id: string) => page.getByTestId(`node-${id}`);
const handle = (page: Page, id: string, kind: 'source' | 'target', port: string) =>
  node(page, id).locator(`.react-flow__handle.${kind}[data-handleid="${port}"]`);

async function connect(page: Page, from: [string, string], to: [string, string]) {
  const a = await settledBox(handle(page, from[0], 'source', from[1]));
  const b = await settledBox(handle(page, to[0], 'target', to[1]));
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 5 });
  await page.mouse.up();
}

async function drop(page: Page, type: string, x: number, y: number) {
  await page.locator(`[data-palette-item="${type}"]`).dragTo(page.getByTestId('flow-canvas'), { targetPosition: { x, y } });
  await expect(card(page, `${type}-1`)).toBeVisible();
}

/** Whether the box lies wholly inside the other. */
function inside(b: { x: number; y: number; width: number; height: number }, outer: { x: number; y: number; width: number; height: number }) {
  return b.x >= outer.x - 1 && b.y >= outer.y - 1 && b.x + b.width <= outer.x + outer.width + 1 && b.y + b.height <= outer.y + outer.height + 1;
}

/** The on-screen size, in px, of a node's name: its font size times the canvas zoom. */
async function nameSizeOnScreen(title: Locator): Promise<number> {
  return title.evaluate((el) => {
    const viewport = el.closest('.react-flow__viewport') as HTMLElement;
    const zoom = new DOMMatrixReadOnly(getComputedStyle(viewport).transform).a;
    return parseFloat(getComputedStyle(el).fontSize) * zoom;
  });
}

test('the obvious first pipeline connects, fits in view, runs on a pasted ADT and deploys', async ({ page }) => {
  test.setTimeout(180_000);
  await signUp(page, 'Mary Seacole');
  // creating a pipeline opens the editor on it
  await page.getByRole('button', { name: 'New pipeline' }).click();
  const dialog = page.getByRole('dialog', { name: 'New pipeline' });
  await dialog.getByLabel('Name').fill('ADT to research');
  await dialog.getByRole('button', { name: 'Create pipeline' }).click();
  await expect(page).toHaveURL(/\/pipelines\/[0-9a-f-]+$/);

  // two columns of three, as someone would drop them
  const chain = ['manual-trigger', 'hl7v2-parse', 'hl7v2-to-fhir', 'fhir-validate', 'fhir-deidentify', 'pipeline-output'];
  for (const [i, type] of chain.entries()) await drop(page, type, i < 3 ? 150 : 520, 90 + (i % 3) * 230);

  // manual trigger → hl7v2-parse just connects: the trigger gains the text field the parser takes
  await connect(page, ['manual-trigger-1', 'event'], ['hl7v2-parse-1', 'text']);
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'now has an input "text" (text)' })).toBeVisible();
  await shot(page, 'trigger-field-added');
  await connect(page, ['hl7v2-parse-1', 'message'], ['hl7v2-to-fhir-1', 'message']);
  await connect(page, ['hl7v2-to-fhir-1', 'bundle'], ['fhir-validate-1', 'resource']);
  await connect(page, ['fhir-validate-1', 'valid'], ['fhir-deidentify-1', 'resource']);
  await connect(page, ['fhir-deidentify-1', 'resource'], ['pipeline-output-1', 'value']);
  await expect(page.locator('.react-flow__edge')).toHaveCount(5);
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Cannot connect' })).toHaveCount(0);

  // the trigger's form: the field is there by name, labelled plainly
  await card(page, 'manual-trigger-1').click();
  const config = page.getByRole('region', { name: 'Node configuration' });
  await expect(config.locator('input[value="text"]')).toBeVisible();
  await expect(config).not.toContainText('newKey');
  await expect(config).not.toContainText(' Key');

  // laid out left to right, the whole chain is in view, and its names are readable
  await page.getByRole('button', { name: 'Auto-layout' }).click();
  const canvas = (await page.getByTestId('flow-canvas').boundingBox())!;
  await expect
    .poll(async () => {
      const boxes = await Promise.all(chain.map((t) => card(page, `${t}-1`).boundingBox()));
      return boxes.every((b) => b && inside(b, canvas)) && boxes[0]!.x < boxes[5]!.x;
    })
    .toBe(true);
  for (const t of chain) expect(await nameSizeOnScreen(card(page, `${t}-1`).locator('p').first())).toBeGreaterThanOrEqual(9.5);
  await expect(page.getByTestId('validation-status')).not.toContainText('problem');
  await shot(page, 'chain-in-view');

  // save, run on a pasted ADT: every node completes
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('unsaved')).toBeHidden();
  await page.getByRole('button', { name: 'Test run' }).click();
  const run = page.getByRole('dialog', { name: 'Run in test mode' });
  await run.locator('textarea').first().fill(ADT); // the trigger's text field, pasted as text
  await run.getByRole('button', { name: 'Run test' }).click();
  const execution = page.getByRole('region', { name: 'Execution' });
  await expect(execution.getByTestId('execution-status')).toHaveText('completed', { timeout: 30_000 });
  for (const t of chain) await expect(card(page, `${t}-1`)).toHaveAttribute('data-status', 'completed');
  await shot(page, 'ran');

  // deploy
  await page.getByRole('button', { name: 'Deploy', exact: true }).click();
  await expect(page.getByText('Deployed', { exact: true })).toBeVisible();
  await shot(page, 'deployed');
});

test('a refused connection says what would fit, and inserts the converter in one click', async ({ page }) => {
  await signUp(page, 'Florence Nightingale');
  const definition = {
    nodes: [
      { id: 'in', type: 'manual-trigger', config: {}, position: { x: 0, y: 0 } },
      { id: 'fhir', type: 'hl7v2-to-fhir', config: {}, position: { x: 560, y: 0 } },
    ],
    connections: [],
  };
  const id = ((await (await page.request.post('/api/pipelines', { data: { name: 'Refused', definition } })).json()) as { id: string }).id;
  await page.goto(`/pipelines/${id}`);
  await expect(card(page, 'fhir')).toBeVisible();
  await connect(page, ['in', 'event'], ['fhir', 'message']);
  const refusal = page.locator('[data-sonner-toast]').filter({ hasText: 'Cannot connect' });
  await expect(refusal).toContainText('takes a parsed HL7 v2 message (hl7v2-message)');
  await expect(refusal).toContainText('HL7 v2 parse turns text into what it takes');
  await shot(page, 'refused-with-fix');
  await refusal.getByRole('button', { name: 'Insert HL7 v2 parse' }).click();
  await expect(card(page, 'hl7v2-parse-1')).toBeVisible();
  await expect(page.locator('.react-flow__edge')).toHaveCount(2);
  await shot(page, 'converter-inserted');
});

test('forms and findings say what to enter, by label, and every problem shows at once', async ({ page }) => {
  await signUp(page, 'Virginia Apgar');
  const definition = {
    nodes: [
      { id: 'nightly', type: 'schedule-trigger', config: { cron: 'every night', timezone: 'Mars/Olympus' }, position: { x: 0, y: 0 } },
      {
        id: 'deid',
        type: 'fhir-deidentify',
        config: { rules: [{ path: 'Patient.communication', action: 'keep' }], date_shift_days: 0 },
        position: { x: 320, y: 0 },
      },
      { id: 'out', type: 'pipeline-output', config: {}, position: { x: 640, y: 0 } },
    ],
    connections: [
      { source: 'nightly', source_port: 'event', target: 'deid', target_port: 'resource' },
      { source: 'deid', source_port: 'resource', target: 'out', target_port: 'value' },
    ],
  };
  const id = ((await (await page.request.post('/api/pipelines', { data: { name: 'Nightly research', definition } })).json()) as { id: string }).id;
  await page.goto(`/pipelines/${id}`);

  // deploy lists every problem of every node in one go, each by its field's label
  await page.getByRole('button', { name: 'Deploy', exact: true }).click();
  const refusal = page.locator('[data-sonner-toast]').filter({ hasText: 'Fix these problems before deploying' });
  await expect(refusal).toContainText('Schedule (cron): not a valid cron expression: enter 5 fields');
  await expect(refusal).toContainText('Timezone: not a known IANA time zone');
  await expect(refusal).toContainText('Date shift days: enter 1 or more');
  await expect(refusal).not.toContainText('config.');
  await shot(page, 'deploy-every-problem');

  // the de-identify form takes its documented rules (a list) and says what to enter
  await card(page, 'deid').click();
  const config = page.getByRole('region', { name: 'Node configuration' });
  await expect(config.getByRole('group', { name: 'Rules' })).toContainText('Patient.communication');
  await expect(config).not.toContainText('Expected a JSON object');
  await expect(config).not.toContainText('Enter a JSON list');
  await expect(config).toContainText('Date shift days: enter 1 or more');
  await shot(page, 'deid-form');
  await config.getByLabel('Date shift days').fill('180');
  await expect(config).not.toContainText('Date shift days: enter 1 or more');

  // the cron field explains itself and previews its next runs
  await card(page, 'nightly').click();
  await config.getByLabel('Timezone').fill('America/Chicago');
  await config.getByLabel('Schedule (cron)').fill('0 2 * * *');
  const preview = config.getByTestId('cron-preview');
  await expect(preview).toContainText('At 02:00 (America/Chicago)');
  await expect(preview).toContainText('Next runs');
  await expect(preview.locator('li')).toHaveCount(3);
  await expect(page.getByTestId('validation-status')).not.toContainText('problem');
  await shot(page, 'cron-preview');
});

test('panels fold, stay folded after a reload, and give the canvas their room', async ({ page }) => {
  await signUp(page, 'Elizabeth Blackwell');
  const definition = { nodes: [{ id: 'in', type: 'manual-trigger', config: {}, position: { x: 0, y: 0 } }], connections: [] };
  const id = ((await (await page.request.post('/api/pipelines', { data: { name: 'Room', definition } })).json()) as { id: string }).id;
  await page.goto(`/pipelines/${id}`);
  const canvas = page.getByTestId('flow-canvas');
  await expect(card(page, 'in')).toBeVisible();
  const before = (await canvas.boundingBox())!.width;
  await page.getByRole('button', { name: 'Show or hide the palette' }).click();
  await page.getByRole('button', { name: 'Show or hide the side panel' }).click();
  await expect.poll(async () => (await canvas.boundingBox())!.width).toBeGreaterThan(before + 500);
  await page.reload();
  await expect(card(page, 'in')).toBeVisible();
  await expect.poll(async () => (await canvas.boundingBox())!.width).toBeGreaterThan(before + 500);
  await shot(page, 'panels-folded');
  await page.getByRole('button', { name: 'Show or hide the palette' }).click();
  await expect(page.locator('[data-palette-item="hl7v2-parse"]')).toBeVisible();
});

test('map by dragging: PID-5 and PID-7 of a pasted ADT into {name, birthDate}, previewed live', async ({ page }) => {
  await signUp(page, 'Ada Lovelace');
  const definition = {
    nodes: [
      { id: 'in', type: 'manual-trigger', config: { fields: { text: 'text' } }, position: { x: 0, y: 0 } },
      { id: 'parse', type: 'hl7v2-parse', config: {}, position: { x: 320, y: 0 } },
      { id: 'map', type: 'jsonata-transform', config: { expression: '{}' }, position: { x: 640, y: 0 } },
      { id: 'out', type: 'pipeline-output', config: {}, position: { x: 960, y: 0 } },
    ],
    connections: [
      { source: 'in', source_port: 'text', target: 'parse', target_port: 'text' },
      { source: 'parse', source_port: 'message', target: 'map', target_port: 'input' },
      { source: 'map', source_port: 'output', target: 'out', target_port: 'value' },
    ],
  };
  const id = ((await (await page.request.post('/api/pipelines', { data: { name: 'Map ADT', definition } })).json()) as { id: string }).id;
  await page.goto(`/pipelines/${id}`);
  await page.getByRole('button', { name: 'Test run' }).click();
  const run = page.getByRole('dialog', { name: 'Run in test mode' });
  await run.locator('textarea').first().fill(ADT); // the trigger's text field, pasted as text
  await run.getByRole('button', { name: 'Run test' }).click();
  await expect(card(page, 'out')).toHaveAttribute('data-status', 'completed');

  await card(page, 'map').click();
  const panel = page.getByRole('region', { name: 'Node configuration' });
  const tree = panel.getByRole('tree', { name: 'Input fields' });
  // the message as HL7 names it
  await expect(tree).toContainText('PID Patient Identification');
  const pid5 = tree.getByRole('button', { name: 'PID-5 Patient Name', exact: true });
  const pid7 = tree.getByRole('button', { name: 'PID-7 Date/Time of Birth', exact: true });
  await expect(pid5).toBeVisible();
  // the object's keys, one a line; each field is dragged onto the end of its key's line
  await fillCode(panel, '{"name": \n, "birthDate": \n}');
  const lines = panel.locator('.cm-line');
  for (const [field, line] of [
    [pid5, 0],
    [pid7, 1],
  ] as const) {
    // the field in the middle of the panel, not at the window's bottom edge, where a drag once never started
    await field.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const box = (await lines.nth(line).boundingBox())!;
    await field.dragTo(lines.nth(line), { targetPosition: { x: box.width - 4, y: box.height / 2 } });
    await expect(lines.nth(line)).toContainText('$hl7($, "PID-');
  }
  await expect(panel.getByRole('textbox', { name: 'Expression' })).toContainText('{"name": $hl7($, "PID-5"), "birthDate": $hl7($, "PID-7")}');
  const result = panel.getByLabel('Expression result');
  await expect(result).toContainText('"name":');
  await expect(result).toContainText('"birthDate":');
  await expect(result).not.toHaveClass(/bg-red-50/);
  await shot(page, 'map-by-dragging');
});

test('a connection dragged past an edge leaves the canvas still; held at the edge on purpose, it pans', async ({ page }) => {
  await signUp(page, 'Florence Nightingale');
  const definition = {
    nodes: [
      { id: 'in', type: 'manual-trigger', config: {}, position: { x: 0, y: 0 } },
      { id: 'p', type: 'hl7v2-parse', config: {}, position: { x: 360, y: 0 } },
    ],
    connections: [],
  };
  const id = ((await (await page.request.post('/api/pipelines', { data: { name: 'Edges', definition } })).json()) as { id: string }).id;
  await page.goto(`/pipelines/${id}`);
  await expect(card(page, 'p')).toBeVisible();
  const box = (await page.getByTestId('flow-canvas').boundingBox())!;
  const viewport = page.locator('.react-flow__viewport');
  const transform = () => viewport.evaluate((el) => getComputedStyle(el).transform);
  await page.waitForTimeout(500); // the opening fit has settled
  const before = await transform();
  const from = (await node(page, 'in').locator('.react-flow__handle.source').first().boundingBox())!;
  const nearEdge = { x: box.x + box.width - 25, y: box.y + box.height / 2 };
  // on the way past the edge zone and back: the canvas does not move
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(nearEdge.x, nearEdge.y, { steps: 8 });
  await page.waitForTimeout(150); // a moment near the edge, as on the way to a port that sits there
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  expect(await transform()).toBe(before);
  // resting at the edge: it pans toward what lies beyond
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(nearEdge.x, nearEdge.y, { steps: 8 });
  await expect.poll(transform, { timeout: 5_000 }).not.toBe(before);
  await shot(page, 'edge-pan');
  await page.mouse.up();
  // matrix(a, b, c, d, e, f): e is the horizontal shift
  const x = (t: string) => Number(t.match(/matrix\(([^)]*)\)/)?.[1]?.split(',')[4]);
  expect(x(await transform())).toBeLessThan(x(before));
});

test('with the copilot chat open, the run panel keeps its values readable', async ({ page }) => {
  await signUp(page, 'Virginia Apgar');
  const definition = {
    nodes: [
      { id: 'in', type: 'manual-trigger', config: { fields: { text: 'text' } }, position: { x: 0, y: 0 } },
      { id: 'p', type: 'hl7v2-parse', config: {}, position: { x: 320, y: 0 } },
    ],
    connections: [{ source: 'in', source_port: 'text', target: 'p', target_port: 'text' }],
  };
  const id = ((await (await page.request.post('/api/pipelines', { data: { name: 'Narrow', definition } })).json()) as { id: string }).id;
  await page.goto(`/pipelines/${id}`);
  await page.getByRole('button', { name: 'Test run' }).click();
  const run = page.getByRole('dialog', { name: 'Run in test mode' });
  await run.locator('textarea').first().fill(ADT);
  await run.getByRole('button', { name: 'Run test' }).click();
  const execution = page.getByRole('region', { name: 'Execution' });
  await expect(execution.getByTestId('execution-status')).toHaveText('completed', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Copilot chat' }).click();
  await expect(page.getByTestId('editor-copilot').getByRole('button', { name: 'Send' })).toBeVisible();
  // the message's view takes the drawer's width rather than a third of it: segment names stay on one line
  const view = execution.getByTestId('hl7v2-view').first();
  await expect.poll(async () => (await view.boundingBox())!.width).toBeGreaterThan(380);
  await shot(page, 'run-with-chat');
});
