import { expect, test } from '@playwright/test';
import { settledBox, signUp, fillCode } from './support';

/**
 * Data-aware configuration: after a test run, an expression node shows its input's fields (click one to insert
 * it at the cursor) and the expression's result on that input, live as it is edited. UI_SHOTS=1 saves
 * /tmp/expression-preview.png.
 */

test('the input of the last run, its fields to insert, and the live result of the expression', async ({ page }) => {
  await signUp(page, 'Henrietta Lacks');
  const definition = {
    nodes: [
      { id: 'in', type: 'manual-trigger', config: { fields: { patient: 'json' } }, position: { x: 0, y: 0 } },
      { id: 'shape', type: 'jsonata-transform', config: { expression: '"Dear "' }, position: { x: 320, y: 0 } },
      { id: 'out', type: 'pipeline-output', config: {}, position: { x: 640, y: 0 } },
    ],
    connections: [
      { source: 'in', source_port: 'patient', target: 'shape', target_port: 'input' },
      { source: 'shape', source_port: 'output', target: 'out', target_port: 'value' },
    ],
  };
  const id = ((await (await page.request.post('/api/pipelines', { data: { name: 'Letters', definition } })).json()) as { id: string }).id;
  await page.goto(`/pipelines/${id}`);

  await page.locator('.react-flow__node[data-id="shape"]').click();
  const panel = page.getByRole('region', { name: 'Node configuration' });
  await expect(panel.getByText('Run the pipeline (Test run) and this node’s input')).toBeVisible();

  // a test run gives the node an input
  await page.getByRole('button', { name: 'Test run' }).click();
  const runDialog = page.getByRole('dialog', { name: 'Run in test mode' });
  await fillCode(runDialog, '{"patient": {"resourceType": "Patient", "name": [{"family": "Kshlerin", "given": ["Aaron"]}]}}');
  await runDialog.getByRole('button', { name: 'Run test' }).click();
  await expect(page.getByTestId('node-out')).toHaveAttribute('data-status', 'completed');

  // the run's panel opened below the canvas, which fits the view again: the node is clicked where it has come to rest
  const shape = page.locator('.react-flow__node[data-id="shape"]');
  const box = await settledBox(shape);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  const fields = panel.getByRole('tree', { name: 'Input fields' });
  await expect(fields.getByRole('button', { name: 'name[0].family' })).toBeVisible();
  await expect(panel.getByLabel('Expression result')).toHaveText('"Dear "');
  // unfinished, the expression says why; a field clicked in goes where the cursor is
  const expression = panel.getByRole('textbox', { name: 'Expression' });
  await fillCode(panel, '"Dear " & ');
  await expect(panel.getByLabel('Expression result')).toHaveClass(/bg-red-50/);
  await fields.getByRole('button', { name: 'name[0].family' }).click();
  await expect(expression).toHaveText('"Dear " & name[0].family');
  await expect(panel.getByLabel('Expression result')).toHaveText('"Dear Kshlerin"');
  // edited by hand, the result follows
  await fillCode(panel, '$uppercase(name[0].given[0])');
  await expect(panel.getByLabel('Expression result')).toHaveText('"AARON"');
  if (process.env.UI_SHOTS) await page.screenshot({ path: '/tmp/expression-preview.png' });
});
