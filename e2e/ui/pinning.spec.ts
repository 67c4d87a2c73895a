import { expect, test } from '@playwright/test';
import { signUp, fillCode } from './support';

/** Pinned data: pin a node's outputs from a run; test runs then use them without running it, until unpinned. */

test('pin a node\u2019s outputs and test runs use them; unpin and the node runs again', async ({ page }) => {
  await signUp(page, 'Linda Richards');
  const definition = {
    nodes: [
      { id: 'in', type: 'manual-trigger', config: { fields: { patient: 'json' } }, position: { x: 0, y: 0 } },
      { id: 'lookup', type: 'jsonata-transform', config: { expression: 'name[0].family' }, position: { x: 320, y: 0 } },
      { id: 'out', type: 'pipeline-output', config: {}, position: { x: 640, y: 0 } },
    ],
    connections: [
      { source: 'in', source_port: 'patient', target: 'lookup', target_port: 'input' },
      { source: 'lookup', source_port: 'output', target: 'out', target_port: 'value' },
    ],
  };
  const id = ((await (await page.request.post('/api/pipelines', { data: { name: 'Pins', definition } })).json()) as { id: string }).id;
  await page.goto(`/pipelines/${id}`);

  const testRun = async (patient: string) => {
    await page.getByRole('button', { name: 'Test run' }).click();
    const dialog = page.getByRole('dialog', { name: 'Run in test mode' });
    await fillCode(dialog, `{"patient": {"name": [{"family": "${patient}"}]}}`);
    await dialog.getByRole('button', { name: 'Run test' }).click();
    await expect(dialog).toBeHidden();
  };
  const execution = page.getByRole('region', { name: 'Execution' });
  await testRun('Kshlerin');
  await expect(page.getByTestId('node-out')).toHaveAttribute('data-status', 'completed');
  await execution.getByTestId('exec-node-lookup').click();
  await execution.getByRole('button', { name: 'Pin outputs' }).click();
  await expect(page.getByTestId('node-lookup').getByLabel('pinned')).toBeVisible();

  // another patient, but the pinned lookup answers as before, without running
  await testRun('Wuckert');
  await expect(execution.getByText('Kshlerin').first()).toBeVisible();
  await execution.getByTestId('exec-node-lookup').click();
  await execution.getByRole('tab', { name: /Logs/ }).click();
  await expect(execution.getByText(/pinned outputs used/)).toBeVisible();

  // unpinned, it runs again
  await page.locator('.react-flow__node[data-id="lookup"]').click();
  await page.getByRole('region', { name: 'Node configuration' }).getByRole('button', { name: 'Unpin' }).click();
  await expect(page.getByTestId('node-lookup').getByLabel('pinned')).toHaveCount(0);
  await testRun('Wuckert');
  await execution.getByTestId('exec-node-out').click();
  await execution.getByRole('tab', { name: 'Inputs' }).click();
  await expect(execution.getByText('Wuckert').first()).toBeVisible();
});
