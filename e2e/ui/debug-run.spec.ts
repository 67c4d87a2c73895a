import { expect, test } from '@playwright/test';
import { signUp } from './support';

/** "Debug in editor" from a past run: its inputs become the test inputs, its results fill the drawer and the node previews. */
test('debug a past run in the editor with its data', async ({ page }) => {
  await signUp(page, 'Mary Eliza Mahoney', 'mary.mahoney');

  const definition = {
    nodes: [
      { id: 'in', type: 'manual-trigger', config: { fields: { patient: 'json' } }, position: { x: 0, y: 0 } },
      { id: 'name', type: 'jsonata-transform', config: { expression: 'name[0].family' }, position: { x: 320, y: 0 } },
      { id: 'out', type: 'pipeline-output', config: {}, position: { x: 640, y: 0 } },
    ],
    connections: [
      { source: 'in', source_port: 'patient', target: 'name', target_port: 'input' },
      { source: 'name', source_port: 'output', target: 'out', target_port: 'value' },
    ],
  };
  const id = ((await (await page.request.post('/api/pipelines', { data: { name: 'Family names', definition } })).json()) as { id: string }).id;
  const patient = { resourceType: 'Patient', name: [{ family: 'Wuckert', given: ['Lia'] }] };
  const run = (await (await page.request.post('/api/execute', { data: { pipeline_id: id, inputs: { patient }, test_mode: true } })).json()) as {
    execution_id: string;
  };

  await page.goto(`/executions/${run.execution_id}`);
  await page.getByRole('link', { name: 'Debug in editor' }).click();
  await expect(page).toHaveURL(new RegExp(`/pipelines/${id}\\?debug=${run.execution_id}$`));
  const execution = page.getByRole('region', { name: 'Execution' });
  await expect(execution.getByTestId('execution-status')).toHaveText('completed');
  await expect(page.getByTestId('node-name')).toHaveAttribute('data-status', 'completed');

  // the node's preview works on that run's data
  await page.locator('.react-flow__node[data-id="name"]').click();
  const panel = page.getByRole('region', { name: 'Node configuration' });
  await expect(panel.getByLabel('Expression result')).toHaveText('"Wuckert"');
  // and a new test run starts from its inputs
  await page.getByRole('button', { name: 'Test run' }).click();
  await expect(page.getByRole('dialog', { name: 'Run in test mode' }).locator('.cm-content')).toContainText('Wuckert');
});
