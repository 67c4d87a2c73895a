import { expect, test } from '@playwright/test';
import { signUp } from './support';

/** The canvas's keyboard: ? lists every shortcut, Ctrl+D duplicates the selection (and undo takes it back). */
test('shortcut sheet and duplicating nodes from the keyboard', async ({ page }) => {
  await signUp(page, 'Clara Barton');
  const definition = {
    nodes: [
      { id: 'in', type: 'manual-trigger', config: {}, position: { x: 0, y: 0 } },
      { id: 'shape', type: 'jsonata-transform', config: { expression: '$' }, position: { x: 320, y: 0 } },
    ],
    connections: [{ source: 'in', source_port: 'event', target: 'shape', target_port: 'input' }],
  };
  const id = ((await (await page.request.post('/api/pipelines', { data: { name: 'Keys', definition } })).json()) as { id: string }).id;
  await page.goto(`/pipelines/${id}`);
  const nodes = page.locator('.react-flow__node');
  await expect(nodes).toHaveCount(2);

  await page.locator('.react-flow__pane').click({ position: { x: 600, y: 400 } });
  await page.keyboard.press('Shift+?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toBeVisible();
  await expect(sheet.getByText('Duplicate the selected nodes')).toBeVisible();
  await expect(sheet.getByText('Search the palette')).toBeVisible();
  if (process.env.UI_SHOTS) await page.screenshot({ path: '/tmp/shortcuts-sheet.png' });
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();

  await page.locator('.react-flow__node[data-id="shape"]').click();
  await page.keyboard.press('Control+d');
  await expect(nodes).toHaveCount(3);
  await expect(page.locator('.react-flow__node[data-id="jsonata-transform-1"]')).toBeVisible();
  await expect(page.getByTestId('unsaved')).toBeVisible();
  await page.keyboard.press('Control+z');
  await expect(nodes).toHaveCount(2);
});
