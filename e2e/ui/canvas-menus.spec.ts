import { expect, test, type Page } from '@playwright/test';
import { fillCode, signUp } from './support';

/** The point of the canvas pane at fractions (fx, fy) of its width and height, in page coordinates. */
async function panePoint(page: Page, fx: number, fy: number) {
  const box = (await page.locator('.react-flow__pane').boundingBox())!;
  return { x: Math.round(box.x + fx * box.width), y: Math.round(box.y + fy * box.height) };
}

/** Where to click a node: its top-left corner, which its duplicate (placed 40 px lower and to the right) leaves free. */
const CORNER = { x: 12, y: 8 };

/**
 * Context menus on nodes and on the canvas, and sticky notes: Markdown for people, saved with the pipeline,
 * never run.
 */
test('right-click menus act on nodes and the canvas; a sticky note is saved with the pipeline and never runs', async ({ page }) => {
  await signUp(page, 'Florence Wald');
  // in ──patient──▶ name (name[0].family) ──▶ out "family"
  const definition = {
    nodes: [
      { id: 'in', type: 'manual-trigger', config: { fields: { patient: 'json' } }, position: { x: 0, y: 0 } },
      { id: 'name', type: 'jsonata-transform', config: { expression: 'name[0].family' }, position: { x: 320, y: 0 } },
      { id: 'out', type: 'pipeline-output', config: { key: 'family' }, position: { x: 640, y: 0 } },
    ],
    connections: [
      { source: 'in', source_port: 'patient', target: 'name', target_port: 'input' },
      { source: 'name', source_port: 'output', target: 'out', target_port: 'value' },
    ],
  };
  const id = ((await (await page.request.post('/api/pipelines', { data: { name: 'Canvas habits', definition } })).json()) as { id: string }).id;
  await page.goto(`/pipelines/${id}`);
  const card = (node: string) => page.getByTestId(`node-${node}`);
  const nodeMenu = page.getByRole('menu', { name: 'Node actions' });
  const canvasMenu = page.getByRole('menu', { name: 'Canvas actions' });
  await expect(card('name')).toBeVisible();

  // right-click a node: its actions with their shortcuts; Duplicate copies it beside it
  await card('name').click({ button: 'right', position: CORNER });
  await expect(nodeMenu.getByRole('menuitem', { name: /Duplicate.*Ctrl\+D/ })).toBeVisible();
  await expect(nodeMenu.getByRole('menuitem', { name: /Disable.*D$/ })).toBeVisible();
  await expect(nodeMenu.getByRole('menuitem', { name: /Run to here.*Shift\+R/ })).toBeVisible();
  await nodeMenu.getByRole('menuitem', { name: /Duplicate/ }).click();
  await expect(nodeMenu).toBeHidden();
  await expect(card('jsonata-transform-1')).toBeVisible();

  // the keyboard: the first item has the focus, arrows move, Enter picks; here Disable
  await card('name').click({ button: 'right', position: CORNER });
  await expect(nodeMenu.getByRole('menuitem').first()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(nodeMenu.getByRole('menuitem', { name: /Disable/ })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(card('name')).toHaveAttribute('data-disabled', 'true');
  // Escape closes, and so does a click elsewhere
  await card('name').click({ button: 'right', position: CORNER });
  await expect(nodeMenu.getByRole('menuitem', { name: /Enable/ })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(nodeMenu).toBeHidden();
  await card('name').click({ button: 'right', position: CORNER });
  await page.getByRole('region', { name: 'Node palette' }).click({ position: { x: 20, y: 200 } });
  await expect(nodeMenu).toBeHidden();
  await card('name').click({ button: 'right', position: CORNER });
  await nodeMenu.getByRole('menuitem', { name: /Enable/ }).click();

  // opened at the bottom edge of the window, the menu opens upwards, inside it
  const low = await panePoint(page, 0.3, 0.995);
  await page.mouse.click(low.x, low.y, { button: 'right' });
  const menuBox = (await canvasMenu.boundingBox())!;
  expect(menuBox.y + menuBox.height).toBeLessThanOrEqual(900);
  expect(menuBox.y + menuBox.height).toBeLessThanOrEqual(low.y + 1);
  await page.keyboard.press('Escape');
  await expect(canvasMenu).toBeHidden();
  await expect(card('name')).not.toHaveAttribute('data-disabled', 'true');

  // right-click the empty canvas: add a node there, picked in the palette's search
  const drop = await panePoint(page, 0.5, 0.75);
  await page.mouse.click(drop.x, drop.y, { button: 'right' });
  await canvasMenu.getByRole('menuitem', { name: 'Add a node here…' }).click();
  const search = page.getByRole('searchbox', { name: 'Search nodes' });
  await expect(search).toBeFocused();
  await expect(page.getByText('Pick a node: it goes where you clicked on the canvas.')).toBeVisible();
  await search.fill('output');
  // one click on an entry adds it (otherwise a click only focuses it)
  await page.locator('[data-palette-item="pipeline-output"]').click();
  await expect(page.getByText('Pick a node: it goes where you clicked on the canvas.')).toBeHidden();
  const added = card('pipeline-output-1');
  await expect(added).toBeVisible();
  const box = (await added.boundingBox())!;
  // centred on the clicked point, its top just above it (snapped to the grid)
  expect(Math.abs(box.x + box.width / 2 - drop.x)).toBeLessThan(40);
  expect(Math.abs(box.y - drop.y)).toBeLessThan(40);

  // with several selected, the menu acts on all of them
  await card('jsonata-transform-1').click();
  await added.click({ modifiers: ['ControlOrMeta'] });
  await added.click({ button: 'right' });
  await nodeMenu.getByRole('menuitem', { name: 'Delete (2)' }).click();
  await expect(card('jsonata-transform-1')).toHaveCount(0);
  await expect(added).toHaveCount(0);
  await expect(card('out')).toBeVisible();

  // a sticky note at the clicked point, written in Markdown
  const at = await panePoint(page, 0.06, 0.06);
  await page.mouse.click(at.x, at.y, { button: 'right' });
  await canvasMenu.getByRole('menuitem', { name: 'Add a sticky note here' }).click();
  const text = page.getByRole('textbox', { name: 'Note text (Markdown)' });
  await expect(text).toBeFocused();
  await text.fill('## Ward 3\n- ask **consent** first');
  await page.keyboard.press('Escape');
  const note = page.getByTestId('note-note-1');
  await expect(note.getByText('Ward 3')).toBeVisible();
  await expect(note.locator('strong', { hasText: 'consent' })).toBeVisible();
  // selected, it has its colours (and can be resized)
  await note.click();
  await page.getByRole('button', { name: 'Colour: blue' }).click();
  await expect(note).toHaveAttribute('data-color', 'blue');
  // the validator does not see it: the pipeline is as valid as before
  await expect(page.getByTestId('validation-status')).toHaveText('Valid');

  // another note, gone again with Delete; the note's own menu offers editing and deleting
  const second = await panePoint(page, 0.7, 0.06);
  await page.mouse.click(second.x, second.y, { button: 'right' });
  await canvasMenu.getByRole('menuitem', { name: 'Add a sticky note here' }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('note-note-2')).toBeVisible();
  await page.keyboard.press('Delete');
  await expect(page.getByTestId('note-note-2')).toHaveCount(0);
  await note.click({ button: 'right' });
  const noteMenu = page.getByRole('menu', { name: 'Note actions' });
  await expect(noteMenu.getByRole('menuitem', { name: /Delete note/ })).toBeVisible();
  await noteMenu.getByRole('menuitem', { name: /Edit text/ }).click();
  await expect(page.getByRole('textbox', { name: 'Note text (Markdown)' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(note).toBeVisible();

  if (process.env.UI_SHOTS) {
    const p = await panePoint(page, 0.45, 0.25);
    await page.mouse.click(p.x, p.y, { button: 'right' });
    await page.screenshot({ path: '/tmp/h3-canvas-menu.png' });
    await page.keyboard.press('Escape');
    await card('name').click({ button: 'right', position: CORNER });
    await page.screenshot({ path: '/tmp/h3-node-menu.png' });
    await page.keyboard.press('Escape');
  }

  // saved with the pipeline: there after a reload
  await page.keyboard.press('ControlOrMeta+s');
  await expect(page.getByText('Saved as version 2')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('note-note-1').getByText('Ward 3')).toBeVisible();
  await expect(page.getByTestId('note-note-1')).toHaveAttribute('data-color', 'blue');
  await expect(page.getByTestId('unsaved')).toHaveCount(0);

  // a test run runs the three nodes; the note is no node of it
  await page.getByRole('button', { name: 'Test run' }).click();
  const dialog = page.getByRole('dialog', { name: 'Run in test mode' });
  await fillCode(dialog, '{"patient": {"name": [{"family": "Kshlerin"}]}}');
  await dialog.getByRole('button', { name: 'Run test' }).click();
  await expect(card('out')).toHaveAttribute('data-status', 'completed');
  const execution = page.getByRole('region', { name: 'Execution' });
  await expect(execution.getByTestId(/^exec-node-/)).toHaveCount(3);
  const run = await (
    await page.request.post('/api/execute', { data: { pipeline_id: id, test_mode: true, inputs: { patient: { name: [{ family: 'Wuckert' }] } } } })
  ).json();
  expect(Object.keys(run.node_results).sort()).toEqual(['in', 'name', 'out']);
  const saved = await (await page.request.get(`/api/pipelines/${id}`)).json();
  expect(saved.definition.nodes.map((n: { id: string }) => n.id)).toEqual(['in', 'name', 'out']);
  expect(saved.definition.notes).toEqual([expect.objectContaining({ id: 'note-1', text: '## Ward 3\n- ask **consent** first', color: 'blue' })]);

  // the shortcut sheet tells about the menus and notes
  const free = await panePoint(page, 0.95, 0.3);
  await page.mouse.click(free.x, free.y);
  await page.keyboard.press('Shift+?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet.getByText('Add a node or a sticky note there, paste, select all, auto-layout, fit view')).toBeVisible();
  await expect(sheet.getByText('On a sticky note: edit its text (Markdown; Esc ends)')).toBeVisible();
});
