import { expect, test, type Page } from '@playwright/test';
import { fillCode, signUp } from './support';

/** A completion list takes a pick 75 ms after it last changed (CodeMirror's interactionDelay), as a person would. */
async function pick(page: Page) {
  await page.waitForTimeout(150);
  await page.keyboard.press('Enter');
}

/**
 * The JSONata editor of an expression node (issue 11): after a test run, typing a path offers the fields of
 * the node's real input under it, `$` offers the standard library, a completion is picked with the keyboard,
 * Escape closes the list without leaving the panel, the live result follows, and the expression is saved.
 * UI_SHOTS=1 saves /tmp/jsonata-editor.png (1440×900, fields offered), -functions.png and -result.png.
 */

const bundle = {
  resourceType: 'Bundle',
  type: 'collection',
  entry: [
    { resource: { resourceType: 'Patient', id: 'p1', birthDate: '1951-08-01', name: [{ family: 'Lacks', given: ['Henrietta'] }] } },
    { resource: { resourceType: 'Condition', id: 'c1', code: { text: 'Cervical cancer' } } },
  ],
};

test('JSONata editor: completions of the real input fields and of functions, picked with the keyboard, previewed and saved', async ({ page }) => {
  await signUp(page, 'Mary Kubicek');
  const definition = {
    nodes: [
      { id: 'in', type: 'manual-trigger', config: { fields: { bundle: 'json' } }, position: { x: 0, y: 0 } },
      { id: 'shape', type: 'jsonata-transform', config: { expression: '$' }, position: { x: 320, y: 0 } },
      { id: 'out', type: 'pipeline-output', config: {}, position: { x: 640, y: 0 } },
    ],
    connections: [
      { source: 'in', source_port: 'bundle', target: 'shape', target_port: 'input' },
      { source: 'shape', source_port: 'output', target: 'out', target_port: 'value' },
    ],
  };
  const id = ((await (await page.request.post('/api/pipelines', { data: { name: 'Birth dates', definition } })).json()) as { id: string }).id;
  await page.goto(`/pipelines/${id}`);

  // a test run gives the node its input
  await page.getByRole('button', { name: 'Test run' }).click();
  const runDialog = page.getByRole('dialog', { name: 'Run in test mode' });
  await fillCode(runDialog, JSON.stringify({ bundle }));
  await runDialog.getByRole('button', { name: 'Run test' }).click();
  await expect(page.getByTestId('node-out')).toHaveAttribute('data-status', 'completed');

  const panel = page.getByRole('region', { name: 'Node configuration' });
  const editor = panel.getByRole('textbox', { name: 'Expression' });
  const result = panel.getByLabel('Expression result');
  // the canvas may still be changing as the run ends (the execution drawer opens below it): a click made then can land
  // beside the node (seen once in CI on a loaded machine: "No node selected"), so it is made again, as a person would
  await expect(async () => {
    await page.locator('.react-flow__node[data-id="shape"]').click();
    await expect(editor).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  await expect(editor).toHaveText('$');
  await expect(result).toContainText('"resourceType": "Bundle"');

  // a path offers the fields found under it in the input (every entry's resource merged), A to Z
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('entry.resource.');
  const list = page.getByRole('listbox');
  await expect(list.getByRole('option')).toHaveText([/^birthDate/, /^code/, /^id/, /^name/, /^resourceType/]);
  await expect(list.getByRole('option', { name: /birthDate/ })).toContainText('string');
  if (process.env.UI_SHOTS) await page.screenshot({ path: '/tmp/jsonata-editor.png' });

  // typing narrows the list; Enter picks the selected field
  await page.keyboard.type('bi');
  await expect(list.getByRole('option')).toHaveText([/^birthDate/]);
  await pick(page);
  await expect(list).toBeHidden();
  await expect(editor).toHaveText('entry.resource.birthDate');
  await expect(result).toHaveText('"1951-08-01"');

  // $ offers the standard library with signatures; Escape closes the list and the panel stays
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('$cou');
  await expect(list.getByRole('option', { name: /\$count/ })).toContainText('(array)');
  if (process.env.UI_SHOTS) await page.screenshot({ path: '/tmp/jsonata-editor-functions.png' });
  await page.keyboard.press('Escape');
  await expect(list).toBeHidden();
  await expect(panel).toBeVisible();
  await expect(editor).toBeFocused();

  // picked with the keyboard, a function comes with its parentheses, the cursor inside them
  await page.keyboard.type('n');
  await expect(list.getByRole('option').first()).toContainText('$count');
  await pick(page);
  await expect(editor).toHaveText('$count()');
  await page.keyboard.type('entry.resource[resourceType = "Condition"].co');
  await expect(list.getByRole('option')).toHaveText([/^code/]);
  await pick(page);
  await expect(editor).toHaveText('$count(entry.resource[resourceType = "Condition"].code)');
  await expect(result).toHaveText('1');
  if (process.env.UI_SHOTS) await page.screenshot({ path: '/tmp/jsonata-editor-result.png' });

  // saved as typed
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('unsaved')).toBeHidden();
  const saved = (await (await page.request.get(`/api/pipelines/${id}`)).json()) as { definition: { nodes: { id: string; config: { expression?: string } }[] } };
  expect(saved.definition.nodes.find((n) => n.id === 'shape')?.config.expression).toBe('$count(entry.resource[resourceType = "Condition"].code)');
});

test('a switch case gets the JSONata editor, completing from the pinned output wired into the switch', async ({ page }) => {
  await signUp(page, 'Rosalind Franklin');
  const definition = {
    nodes: [
      { id: 'in', type: 'manual-trigger', config: { fields: { bundle: 'json' } }, position: { x: 0, y: 0 }, pinned: { bundle } },
      { id: 'route', type: 'switch', config: { cases: [{ port: 'patients', expression: 'true' }], mode: 'first' }, position: { x: 320, y: 0 } },
    ],
    connections: [{ source: 'in', source_port: 'bundle', target: 'route', target_port: 'value' }],
  };
  const id = ((await (await page.request.post('/api/pipelines', { data: { name: 'Router', definition } })).json()) as { id: string }).id;
  await page.goto(`/pipelines/${id}`);

  await page.locator('.react-flow__node[data-id="route"]').click();
  const panel = page.getByRole('region', { name: 'Node configuration' });
  const editor = panel.getByRole('textbox', { name: /expression/i });
  await expect(editor).toHaveText('true');
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('entry.resource.resourceT');
  await expect(page.getByRole('listbox').getByRole('option')).toHaveText([/^resourceType/]);
  await pick(page);
  await page.keyboard.type(' = "Patient');
  await expect(editor).toHaveText('entry.resource.resourceType = "Patient"');
  await expect(page.getByTestId('unsaved')).toBeVisible();
});
