import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { signUp } from './support';

/**
 * The copilot in the editor: describe a pipeline on an empty canvas, review the proposal (drawn dashed on the
 * canvas, with the validator's verdict and the copilot's reasoning), discard or accept it as one undo step,
 * save, and run it in test mode on an ADT message; then check the canvas with the copilot.
 */

const ADT = readFileSync(join(import.meta.dirname, '../../../shared/data/hl7v2/messages/ADT-A01-01.hl7'), 'utf8');
const REQUEST = 'Parse HL7 ADT messages, convert them to FHIR R4 and validate the bundles';

async function openNewPipeline(page: Page, name: string) {
  await page.getByRole('button', { name: 'New pipeline' }).click();
  const dialog = page.getByRole('dialog', { name: 'New pipeline' });
  await dialog.getByLabel('Name').fill(name);
  // creating opens the editor on the new pipeline
  await dialog.getByRole('button', { name: 'Create pipeline' }).click();
  await expect(page).toHaveURL(/\/pipelines\/[0-9a-f-]+$/);
}

async function design(page: Page, text: string) {
  const box = page.getByRole('region', { name: 'Describe your pipeline' });
  await box.getByLabel('What should the pipeline do?').fill(text);
  await box.getByRole('button', { name: 'Design it' }).click();
  return page.getByRole('region', { name: 'Copilot proposal' });
}

const proposed = (page: Page) => page.locator('.react-flow__node').filter({ has: page.getByLabel('proposed') });

test('describe a pipeline on an empty canvas, accept the proposal, save it and run it in test mode', async ({ page }) => {
  test.setTimeout(120_000);
  const crashes: string[] = [];
  page.on('pageerror', (e) => crashes.push(e.message));
  await signUp(page, 'Ada Copilot');
  const name = `ADT to FHIR ${Date.now()}`;
  await openNewPipeline(page, name);

  // the empty canvas offers the describe box, with examples that fill it
  const box = page.getByRole('region', { name: 'Describe your pipeline' });
  await expect(box).toBeVisible();
  await box.getByRole('button', { name: /Every night at 2am/ }).click();
  await expect(box.getByLabel('What should the pipeline do?')).toHaveValue(/Every night at 2am export Patient resources/);

  // a first proposal, discarded: the canvas stays empty
  let preview = await design(page, REQUEST);
  await expect(preview).toBeVisible();
  await expect(proposed(page)).toHaveCount(6);
  await preview.getByRole('button', { name: 'Discard' }).click();
  await expect(preview).toBeHidden();
  await expect(page.locator('.react-flow__node')).toHaveCount(0);
  await expect(box).toBeVisible();

  // designed again: the proposal is drawn on the canvas and explained beside it
  preview = await design(page, REQUEST);
  await expect(preview.getByTestId('proposal-validation')).toContainText('valid');
  await expect(preview.getByTestId('proposal-validation')).not.toContainText('Not valid');
  await expect(proposed(page)).toHaveCount(6);
  const steps = preview.getByRole('list', { name: 'Proposed nodes' });
  for (const type of ['hl7v2-parse', 'hl7v2-to-fhir', 'fhir-validate']) await expect(steps).toContainText(type);
  await preview.getByText(/How the copilot reasoned/).click();
  await expect(preview.getByText('Order: hl7v2-parse → hl7v2-to-fhir → fhir-validate.')).toBeVisible();
  if (process.env.UI_SHOTS) await page.screenshot({ path: '/tmp/copilot-preview.png' });

  // accepted: the nodes join the document (one undo step), left to right
  await preview.getByRole('button', { name: 'Accept' }).click();
  await expect(preview).toBeHidden();
  await expect(proposed(page)).toHaveCount(0);
  for (const id of ['start', 'parse', 'to_fhir', 'validate', 'out_bundle', 'out_invalid']) await expect(page.getByTestId(`node-${id}`)).toBeVisible();
  const xs = await Promise.all(['start', 'parse', 'to_fhir', 'validate'].map(async (id) => (await page.getByTestId(`node-${id}`).boundingBox())!.x));
  expect([...xs].sort((a, b) => a - b)).toEqual(xs);
  await expect(page.getByTestId('validation-status')).toHaveText('Valid');
  await page.getByRole('button', { name: 'Undo (Ctrl+Z)' }).click();
  await expect(page.locator('.react-flow__node')).toHaveCount(0);
  await page.getByRole('button', { name: 'Redo (Ctrl+Shift+Z)' }).click();
  await expect(page.locator('.react-flow__node')).toHaveCount(6);

  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('unsaved')).toBeHidden();
  await expect(page.getByText('v2', { exact: true })).toBeVisible();

  // run in test mode with an ADT message
  await page.getByRole('button', { name: 'Test run' }).click();
  const dialog = page.getByRole('dialog', { name: 'Run in test mode' });
  await dialog.getByRole('textbox', { name: 'message' }).fill(ADT);
  await dialog.getByRole('button', { name: 'Run test' }).click();
  const execution = page.getByRole('region', { name: 'Execution' });
  await expect(execution.getByTestId('execution-status')).toHaveText('completed');
  await expect(page.getByTestId('node-validate')).toHaveAttribute('data-status', 'completed');

  // the copilot's review of the canvas, beside the validator's problems
  await page.getByTestId('validation-status').click();
  const review = page.getByRole('group', { name: 'Copilot review' });
  await review.getByRole('button', { name: 'Check with copilot' }).click();
  await expect(review.getByRole('button', { name: 'Check again' })).toBeVisible();
  await expect(review).toContainText('The copilot found nothing beyond the problems above.');
  expect(crashes).toEqual([]);
});

test('the copilot from the toolbar on a pipeline that has nodes: its warnings lead to their node', async ({ page }) => {
  await signUp(page, 'Grace Copilot');
  // an HL7 feed written to a FHIR server without validation and without retries
  const definition = {
    nodes: [
      { id: 'in', type: 'manual-trigger', config: { fields: { message: 'text' } }, position: { x: 0, y: 0 } },
      { id: 'parse', type: 'hl7v2-parse', config: {}, position: { x: 320, y: 0 } },
      { id: 'convert', type: 'hl7v2-to-fhir', config: {}, position: { x: 640, y: 0 } },
      { id: 'write', type: 'fhir-write', config: { connector: 'ehr', operation: 'transaction' }, position: { x: 960, y: 0 } },
    ],
    connections: [
      { source: 'in', source_port: 'message', target: 'parse', target_port: 'text' },
      { source: 'parse', source_port: 'message', target: 'convert', target_port: 'message' },
      { source: 'convert', source_port: 'bundle', target: 'write', target_port: 'resource' },
    ],
  };
  const res = await page.request.post('/api/pipelines', { data: { name: 'Unchecked writes', definition } });
  expect(res.status()).toBe(201);
  await page.goto(`/pipelines/${((await res.json()) as { id: string }).id}`);
  await expect(page.getByTestId('node-write')).toBeVisible();

  await page.getByTestId('validation-status').click();
  const review = page.getByRole('group', { name: 'Copilot review' });
  await review.getByRole('button', { name: 'Check with copilot' }).click();
  const finding = review.getByRole('button', { name: /FHIR_NOT_VALIDATED/ });
  await expect(finding).toBeVisible();
  await finding.click();
  await expect(page.locator('.react-flow__node[data-id="write"]')).toHaveClass(/selected/);

  // the describe box over the pipeline: a proposal is placed beside it, and Discard leaves the pipeline as it was
  // (selecting the node opened its settings, which may fill in defaults: compare with the state before)
  const unsavedBefore = await page.getByTestId('unsaved').count();
  await page.getByRole('button', { name: 'Copilot', exact: true }).click();
  const box = page.getByRole('region', { name: 'Describe your pipeline' });
  await box.getByRole('button', { name: /Every night at 2am/ }).click();
  await box.getByRole('button', { name: 'Design it' }).click();
  const preview = page.getByRole('region', { name: 'Copilot proposal' });
  await expect(preview.getByTestId('proposal-validation')).toContainText('valid');
  await expect(proposed(page)).not.toHaveCount(0);
  // what the copilot could not fill, as a checklist
  const todo = preview.getByRole('group', { name: /To finish \(3 left\)/ });
  await expect(todo).toContainText('no fhir connector was given');
  await todo.getByRole('checkbox').first().check();
  await expect(preview.getByRole('group', { name: /To finish \(2 left\)/ })).toBeVisible();
  if (process.env.UI_SHOTS) await page.screenshot({ path: '/tmp/copilot-unresolved.png' });
  await preview.getByRole('button', { name: 'Discard' }).click();
  await expect(page.locator('.react-flow__node')).toHaveCount(4);
  await expect(page.getByTestId('unsaved')).toHaveCount(unsavedBefore);
});
