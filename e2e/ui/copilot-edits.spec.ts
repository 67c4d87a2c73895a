import { expect, test, type Page } from '@playwright/test';
import { signUp } from './support';

/**
 * Issue 31: three changes asked of the copilot in the editor's chat, each previewed on the canvas as a diff (added
 * nodes drawn proposed, rewired and removed ones marked); one accepted and undone (one undo step), another shown
 * again from its turn and accepted, saved: the saved definition holds exactly that change.
 */

// an HL7 v2 feed converted to FHIR and returned
const definition = {
  nodes: [
    { id: 'in', type: 'manual-trigger', config: { fields: { message: 'text' } }, position: { x: 0, y: 0 } },
    { id: 'parse', type: 'hl7v2-parse', config: {}, position: { x: 320, y: 0 } },
    { id: 'convert', type: 'hl7v2-to-fhir', config: {}, position: { x: 640, y: 0 } },
    { id: 'out', type: 'pipeline-output', config: { key: 'result' }, position: { x: 960, y: 0 } },
  ],
  connections: [
    { source: 'in', source_port: 'message', target: 'parse', target_port: 'text' },
    { source: 'parse', source_port: 'message', target: 'convert', target_port: 'message' },
    { source: 'convert', source_port: 'bundle', target: 'out', target_port: 'value' },
  ],
};

const proposed = (page: Page) => page.locator('.react-flow__node').filter({ has: page.getByLabel('proposed', { exact: true }) });

test('three edits asked in the chat, each previewed as a diff; accept, undo, accept another, save: the saved pipeline holds exactly that edit', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const crashes: string[] = [];
  page.on('pageerror', (e) => crashes.push(e.message));
  await signUp(page, 'Edith Edits');
  const res = await page.request.post('/api/pipelines', { data: { name: `ADT to FHIR ${Date.now()}`, definition } });
  expect(res.status()).toBe(201);
  const id = ((await res.json()) as { id: string }).id;
  await page.goto(`/pipelines/${id}`);
  await expect(page.getByTestId('node-convert')).toBeVisible();

  await page.getByRole('button', { name: 'Copilot chat' }).click();
  const chat = page.getByRole('region', { name: 'Copilot chat' });
  const input = chat.getByLabel('Ask the copilot');
  const preview = page.getByRole('region', { name: 'Copilot proposal' });
  const ask = async (text: string, n: number) => {
    await input.fill(text);
    await input.press('Enter');
    const turn = chat.getByTestId('chat-turn').nth(n);
    await expect(turn.getByTestId('chat-message')).toBeVisible();
    await expect(turn.getByTestId('chat-validation')).toContainText('Valid');
    return turn;
  };

  // 1: a step between two named steps — added drawn proposed, its neighbours marked rewired
  const first = await ask('Validate the FHIR bundle between convert and out', 0);
  await expect(first.getByTestId('chat-message')).toContainText('1 change proposed (not saved)');
  await expect(preview).toContainText('1 added, 0 changed, 0 removed, 2 rewired');
  await expect(proposed(page)).toHaveCount(1);
  await expect(page.getByTestId('node-convert').getByLabel('rewired by the proposal')).toBeVisible();
  await expect(page.getByTestId('node-out').getByLabel('rewired by the proposal')).toBeVisible();
  if (process.env.UI_SHOTS) await page.screenshot({ path: '/tmp/edits-1-between.png' });

  // 2: a step named by what it does ("once the message is parsed"), HL7 v2 de-identification there
  await ask('Once the message is parsed, strip the patient identifiers out of it', 1);
  await expect(preview.getByRole('list', { name: 'Proposed nodes' })).toContainText('hl7v2-deidentify');
  await expect(proposed(page)).toHaveCount(1);
  if (process.env.UI_SHOTS) await page.screenshot({ path: '/tmp/edits-2-once-parsed.png' });

  // 3: a removal, reconnected around: the removed node and its connections marked
  await ask('Remove the FHIR conversion', 2);
  await expect(preview).toContainText('0 added, 0 changed, 1 removed');
  await expect(page.getByTestId('node-convert').getByLabel('removed by the proposal')).toBeVisible();
  await expect(page.locator('.react-flow__edge.copilot-removed')).toHaveCount(2);
  if (process.env.UI_SHOTS) await page.screenshot({ path: '/tmp/edits-3-remove.png' });

  // accept the removal, then undo it: one step takes it all back
  await preview.getByRole('button', { name: /^Accept/ }).click();
  await expect(preview).toBeHidden();
  await expect(page.getByTestId('node-convert')).toHaveCount(0);
  await page.getByRole('button', { name: 'Undo (Ctrl+Z)' }).click();
  await expect(page.getByTestId('node-convert')).toBeVisible();
  await expect(page.locator('.react-flow__node')).toHaveCount(4);

  // the first change, shown again from its turn, accepted and saved
  await first.getByTestId('chat-show-proposal').click();
  await expect(preview).toContainText('1 added, 0 changed, 0 removed, 2 rewired');
  await preview.getByRole('button', { name: /^Accept/ }).click();
  await expect(page.getByTestId('node-validate')).toBeVisible();
  // the nodes after the added one moved right to make room: nothing drawn over another
  const box = async (id: string) => (await page.getByTestId(`node-${id}`).boundingBox())!;
  const [validate, out] = [await box('validate'), await box('out')];
  expect(validate.x + validate.width).toBeLessThanOrEqual(out.x);
  if (process.env.UI_SHOTS) await page.screenshot({ path: '/tmp/edits-4-accepted.png' });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('unsaved')).toBeHidden();

  const saved = (await (await page.request.get(`/api/pipelines/${id}`)).json()) as { version: number; definition: typeof definition };
  expect(saved.version).toBe(2);
  expect(saved.definition.nodes.map((n) => `${n.id}:${n.type}`).sort()).toEqual([
    'convert:hl7v2-to-fhir',
    'in:manual-trigger',
    'out:pipeline-output',
    'parse:hl7v2-parse',
    'validate:fhir-validate',
  ]);
  const links = saved.definition.connections.map((c) => `${c.source}.${c.source_port}>${c.target}.${c.target_port}`).sort();
  expect(links).toEqual(['convert.bundle>validate.resource', 'in.message>parse.text', 'parse.message>convert.message', 'validate.valid>out.value']);
  expect(crashes).toEqual([]);
});
