import { expect, test } from '@playwright/test';
import { fillCode, signUp } from './support';

/**
 * Disable a node (D, or the node panel): runs pass its input through instead of running it. Run to here
 * (the node panel, or Shift+R): a test run of the selected node and its upstream only.
 */
test('disable a node and its input passes through; run the pipeline up to a node', async ({ page }) => {
  await signUp(page, 'Virginia Henderson');
  // in ──patient──▶ family (name[0].family) ──▶ upper ($uppercase) ──▶ out "result"
  const definition = {
    nodes: [
      { id: 'in', type: 'manual-trigger', config: { fields: { patient: 'json' } }, position: { x: 0, y: 0 } },
      { id: 'family', type: 'jsonata-transform', config: { expression: 'name[0].family' }, position: { x: 320, y: 0 } },
      { id: 'upper', type: 'jsonata-transform', config: { expression: '$uppercase($)' }, position: { x: 640, y: 0 } },
      { id: 'out', type: 'pipeline-output', config: { key: 'result' }, position: { x: 960, y: 0 } },
    ],
    connections: [
      { source: 'in', source_port: 'patient', target: 'family', target_port: 'input' },
      { source: 'family', source_port: 'output', target: 'upper', target_port: 'input' },
      { source: 'upper', source_port: 'output', target: 'out', target_port: 'value' },
    ],
  };
  const id = ((await (await page.request.post('/api/pipelines', { data: { name: 'Disable and run to here', definition } })).json()) as { id: string }).id;
  await page.goto(`/pipelines/${id}`);
  const card = (node: string) => page.getByTestId(`node-${node}`);
  const panel = page.getByRole('region', { name: 'Node configuration' });
  const execution = page.getByRole('region', { name: 'Execution' });

  // D disables the selected node: greyed, with a badge
  await page.locator('.react-flow__node[data-id="upper"]').click();
  await page.keyboard.press('d');
  await expect(card('upper').getByLabel('disabled')).toBeVisible();
  await expect(card('upper')).toHaveAttribute('data-disabled', 'true');
  await expect(panel.getByRole('button', { name: 'Enable' })).toBeVisible();
  if (process.env.UI_SHOTS) {
    await page.screenshot({ path: '/tmp/disabled-node.png' });
    await page.getByRole('button', { name: 'Zoom In' }).click();
    await page.getByRole('button', { name: 'Zoom In' }).click();
    await card('upper').screenshot({ path: '/tmp/disabled-card.png' });
    await page.getByRole('button', { name: 'Fit View', exact: true }).click();
  }

  // a test run passes the family name through the disabled node, not upper-cased
  await page.getByRole('button', { name: 'Test run' }).click();
  const dialog = page.getByRole('dialog', { name: 'Run in test mode' });
  await fillCode(dialog, '{"patient": {"name": [{"family": "Kshlerin"}]}}');
  await dialog.getByRole('button', { name: /run test/i }).click();
  await expect(dialog).toBeHidden();
  await expect(card('out')).toHaveAttribute('data-status', 'completed');
  await expect(card('upper')).toHaveAttribute('data-status', 'skipped');
  await execution.getByTestId('exec-node-upper').click();
  await expect(execution.getByText('did not run: it is disabled (its input passed through)')).toBeVisible();
  await execution.getByTestId('exec-node-out').click();
  await execution.getByRole('tab', { name: 'Inputs' }).click();
  await expect(execution.getByText(/Kshlerin/).first()).toBeVisible();
  await expect(execution.getByText(/KSHLERIN/)).toHaveCount(0);

  // enabled again from its panel
  await panel.getByRole('button', { name: 'Enable' }).click();
  await expect(card('upper').getByLabel('disabled')).toHaveCount(0);

  // run to here from the panel of "family": it and its upstream run, nothing after it
  await page.locator('.react-flow__node[data-id="family"]').click();
  await panel.getByRole('button', { name: 'Run to here' }).click();
  await expect(card('family')).toHaveAttribute('data-status', 'completed');
  await expect(card('in')).toHaveAttribute('data-status', 'completed');
  await expect(card('upper')).toHaveAttribute('data-status', 'skipped');
  await expect(card('out')).toHaveAttribute('data-status', 'skipped');
  await execution.getByTestId('exec-node-out').click();
  await expect(execution.getByText('did not run: the test run stopped at the node chosen to run to')).toBeVisible();

  // Shift+R on the selected node: now up to "upper" (enabled again, so it upper-cases)
  await page.locator('.react-flow__node[data-id="upper"]').click();
  await page.keyboard.press('Shift+R');
  await expect(card('upper')).toHaveAttribute('data-status', 'completed');
  await expect(card('out')).toHaveAttribute('data-status', 'skipped');
  await execution.getByTestId('exec-node-upper').click();
  await execution.getByRole('tab', { name: 'Outputs' }).click();
  await expect(execution.getByText(/KSHLERIN/).first()).toBeVisible();

  // both are on the shortcut sheet
  await page.locator('.react-flow__pane').click({ position: { x: 600, y: 400 } });
  await page.keyboard.press('Shift+?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet.getByText('Disable or enable the selected nodes')).toBeVisible();
  await expect(sheet.getByText('Test run up to the selected node')).toBeVisible();
});
