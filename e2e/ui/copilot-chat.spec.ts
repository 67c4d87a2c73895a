import { expect, test, type Page } from '@playwright/test';
import { signUp } from './support';

/**
 * The copilot panel beside the canvas: ask for a change to the pipeline open in the editor, watch its steps stream
 * in, accept the change drawn on the canvas (one undo step) and save it; and "Fix" on the copilot's findings, which
 * asks the panel for the change that answers the finding and previews it.
 */

// an HL7 feed converted to FHIR and written to a FHIR server: no validation before the write, no retries
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

async function openPipeline(page: Page, name: string, def: object = definition) {
  const res = await page.request.post('/api/pipelines', { data: { name, definition: def } });
  expect(res.status()).toBe(201);
  await page.goto(`/pipelines/${((await res.json()) as { id: string }).id}`);
  await expect(page.getByTestId('node-write')).toBeVisible();
}

const FIX_VALIDATE = 'Fix: Validate the FHIR resources before write writes them';
const FIX_RETRY = 'Fix: Retry writes to outside systems (3 attempts; writes are idempotent)';

const proposed = (page: Page) => page.locator('.react-flow__node').filter({ has: page.getByLabel('proposed', { exact: true }) });

test('ask the copilot panel for a change: its steps stream in, the change is previewed, accepted as one undo step and saved', async ({ page }) => {
  test.setTimeout(90_000);
  const crashes: string[] = [];
  page.on('pageerror', (e) => crashes.push(e.message));
  await signUp(page, 'Ada Chat');
  await openPipeline(page, `Feed to EHR ${Date.now()}`);

  await page.getByRole('button', { name: 'Copilot chat' }).click();
  const chat = page.getByRole('region', { name: 'Copilot chat' });
  await expect(chat).toBeVisible();
  // the canvas keeps a readable width beside the panel and the side panel (the palette folds away)
  const canvasBox = (await page.getByTestId('flow-canvas').boundingBox())!;
  expect(canvasBox.width).toBeGreaterThanOrEqual(480);

  // a review: why does it fail? The validator's and the copilot's findings, each fixable one with its Fix
  const input = chat.getByLabel('Ask the copilot');
  await input.fill('Why does this fail?');
  await input.press('Enter');
  const review = chat.getByTestId('chat-turn').nth(0);
  await expect(review.getByTestId('chat-message')).toBeVisible();
  await expect(review.getByTestId('step-thinking')).toContainText('Reviewing the pipeline as given');
  await expect(review.getByTestId('chat-validation')).toContainText('FHIR_NOT_VALIDATED');
  await expect(review.getByRole('button', { name: FIX_VALIDATE })).toBeVisible();

  // a change, streamed: the steps it took, the validator's verdict, then its message
  await input.fill('Add a de-identification step before the FHIR write');
  await chat.getByRole('button', { name: 'Send' }).click();
  const turn = chat.getByTestId('chat-turn').nth(1);
  await expect(turn).toContainText('Add a de-identification step before the FHIR write');
  await expect(turn.getByTestId('step-thinking').first()).toContainText('Changing the pipeline as given');
  await expect(turn.getByTestId('step-thinking').nth(1)).toContainText('added deidentify');
  await expect(turn.getByTestId('chat-validation')).toBeVisible();
  await expect(turn.getByTestId('chat-message')).toContainText('1 change');

  // previewed on the canvas: the added node drawn proposed, the document untouched until accepted
  const preview = page.getByRole('region', { name: 'Copilot proposal' });
  await expect(preview).toContainText('Proposed change');
  await expect(preview.getByRole('list', { name: 'Proposed nodes' })).toContainText('fhir-deidentify');
  await expect(proposed(page)).toHaveCount(1);
  await expect(page.locator('.react-flow__edge.copilot-removed')).toHaveCount(1);
  await expect(page.getByTestId('unsaved')).toHaveCount(0);
  if (process.env.UI_SHOTS) await page.screenshot({ path: '/tmp/h2-copilot-chat-preview.png' });

  await preview.getByRole('button', { name: /^Accept/ }).click();
  await expect(preview).toBeHidden();
  await expect(proposed(page)).toHaveCount(0);
  await expect(page.getByTestId('node-deidentify')).toBeVisible();
  await expect(page.locator('.react-flow__node')).toHaveCount(5);
  // one undo step takes it all back, redo makes it again
  await page.getByRole('button', { name: 'Undo (Ctrl+Z)' }).click();
  await expect(page.locator('.react-flow__node')).toHaveCount(4);
  await page.getByRole('button', { name: 'Redo (Ctrl+Shift+Z)' }).click();
  await expect(page.getByTestId('node-deidentify')).toBeVisible();

  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('unsaved')).toBeHidden();
  await expect(page.getByText('v2', { exact: true })).toBeVisible();
  // the conversation stays while the editor is open, the panel closed and opened again
  await chat.getByRole('button', { name: 'Close the copilot' }).click();
  await expect(chat).toBeHidden();
  await page.getByRole('button', { name: 'Copilot chat' }).click();
  await expect(chat.getByTestId('chat-turn')).toHaveCount(2);
  expect(crashes).toEqual([]);
});

test('Fix on a copilot finding: the change that answers it is previewed, and accepting it clears the finding', async ({ page }) => {
  test.setTimeout(90_000);
  await signUp(page, 'Grace Fix');
  // a disabled node: the validator warns, and no change of the copilot answers that
  const withDisabled = { ...definition, nodes: definition.nodes.map((n) => (n.id === 'parse' ? { ...n, disabled: true } : n)) };
  await openPipeline(page, `Unretried writes ${Date.now()}`, withDisabled);

  await page.getByTestId('validation-status').click();
  const problems = page.getByRole('dialog', { name: 'Problems' });
  const review = problems.getByRole('group', { name: 'Copilot review' });
  await review.getByRole('button', { name: 'Check with copilot' }).click();
  await expect(review.getByRole('button', { name: /WRITE_WITHOUT_RETRY/ })).toBeVisible();
  // Fix only where the copilot has a change for the finding: not on the validator's warning about the disabled node
  await expect(problems.getByRole('button', { name: /^parse/ })).toBeVisible();
  const fixes = await problems.getByRole('button', { name: /^Fix: / }).evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
  expect(fixes.sort()).toEqual([FIX_RETRY, FIX_VALIDATE]);
  if (process.env.UI_SHOTS) await page.screenshot({ path: '/tmp/h2-copilot-fix-buttons.png' });

  await review.getByRole('button', { name: FIX_RETRY }).click();
  await expect(problems).toBeHidden();
  const chat = page.getByRole('region', { name: 'Copilot chat' });
  const turn = chat.getByTestId('chat-turn').last();
  await expect(turn).toContainText('Fix: Retry writes to outside systems');
  await expect(turn.getByTestId('step-thinking').nth(1)).toContainText('write: up to 3 attempts');
  const preview = page.getByRole('region', { name: 'Copilot proposal' });
  await expect(preview).toContainText('0 added, 1 changed, 0 removed');
  await expect(page.getByTestId('node-write').getByLabel('changed by the proposal')).toBeVisible();
  if (process.env.UI_SHOTS) await page.screenshot({ path: '/tmp/h2-copilot-fix-preview.png' });
  await preview.getByRole('button', { name: /^Accept/ }).click();
  await expect(preview).toBeHidden();

  // the write now retries: the copilot no longer finds it, and its settings say so
  await page.getByTestId('validation-status').click();
  await review.getByRole('button', { name: 'Check again' }).click();
  await expect(review.getByRole('button', { name: /FHIR_NOT_VALIDATED/ })).toBeVisible();
  await expect(review.getByRole('button', { name: /WRITE_WITHOUT_RETRY/ })).toHaveCount(0);

  // the other Fix adds the validation the write lacked
  await review.getByRole('button', { name: FIX_VALIDATE }).click();
  await expect(preview).toContainText('1 added');
  await expect(proposed(page)).toHaveCount(1);
  await preview.getByRole('button', { name: /^Accept/ }).click();
  await expect(page.getByTestId('node-validate')).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('unsaved')).toBeHidden();
  await page.getByTestId('validation-status').click();
  await review.getByRole('button', { name: 'Check again' }).click();
  await expect(review).toContainText('The copilot found nothing beyond the problems above.');
});
