import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { signUp as signUpAs } from './support';

/**
 * Clinical messages in the editor and the execution views: paste an HL7 v2 ADT message into a test run of
 * manual-trigger → hl7v2-parse → hl7v2-ack → pipeline-output and read PID-5 in the HL7 view; an X12 837 and
 * the FHIR bundle made of it in the X12 and FHIR views. UI_SHOTS=1 saves screenshots to /tmp/clinical-*.png.
 */

const DATA = path.resolve(import.meta.dirname, '../../../shared/data');
const ADT = readFileSync(path.join(DATA, 'hl7v2/messages/ADT-A01-01.hl7'), 'utf8');
const CLAIM = readFileSync(path.join(DATA, 'x12/837_005010X222A2/demo.example1.837'), 'utf8');

async function shot(page: Page, name: string, fullPage = false) {
  if (process.env.UI_SHOTS) await page.screenshot({ path: `/tmp/clinical-${name}.png`, fullPage });
}

async function shotOf(target: Locator, name: string) {
  if (process.env.UI_SHOTS) await target.screenshot({ path: `/tmp/clinical-${name}.png` });
}

const signUp = (page: Page) => signUpAs(page, 'Florence Nightingale', 'florence', { width: 1680, height: 1050 });

type Node = { id: string; type: string; config?: Record<string, unknown> };
async function createPipeline(page: Page, name: string, nodes: Node[], links: [string, string, string, string][]): Promise<string> {
  const definition = {
    nodes: nodes.map((n, i) => ({ ...n, config: n.config ?? {}, position: { x: i * 300, y: 0 } })),
    connections: links.map(([source, source_port, target, target_port]) => ({ source, source_port, target, target_port })),
  };
  const res = await page.request.post('/api/pipelines', { data: { name, definition } });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** Pastes text into the focused textarea as a person would (clipboard, Ctrl+V), so its line ends are the clipboard's. */
async function paste(page: Page, text: string) {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.keyboard.press('ControlOrMeta+V');
}

async function testRun(page: Page, pipelineId: string, field: string, text: string) {
  await page.goto(`/pipelines/${pipelineId}`);
  await page.getByRole('button', { name: 'Test run' }).click();
  const dialog = page.getByRole('dialog', { name: 'Run in test mode' });
  const box = dialog.getByRole('textbox', { name: field });
  await expect(box).toBeVisible();
  await box.click();
  await paste(page, text);
  return dialog;
}

function watchErrors(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  return problems;
}

test('paste an ADT message into a test run and read PID-5 in the HL7 view', async ({ page }) => {
  test.setTimeout(120_000);
  const crashes = watchErrors(page);
  await signUp(page);
  const id = await createPipeline(
    page,
    `ADT feed ${Date.now()}`,
    [
      { id: 'in', type: 'manual-trigger', config: { fields: { message: 'text' } } },
      { id: 'parse', type: 'hl7v2-parse' },
      { id: 'ack', type: 'hl7v2-ack' },
      { id: 'out', type: 'pipeline-output' },
    ],
    [
      ['in', 'message', 'parse', 'text'],
      ['parse', 'message', 'ack', 'message'],
      ['ack', 'ack', 'out', 'value'],
    ],
  );

  const dialog = await testRun(page, id, 'message', ADT);
  // the dialog reads the pasted text before it runs
  await expect(dialog.getByTestId('reading-message')).toContainText('HL7 v2 ADT^A01 · v2.8 · 24 segments');
  await expect(dialog.getByRole('combobox', { name: 'Line ends' })).toHaveValue('\n');
  await shot(page, 'run-dialog');
  await dialog.getByRole('button', { name: 'Run test' }).click();

  const execution = page.getByRole('region', { name: 'Execution' });
  await expect(execution.getByTestId('execution-status')).toHaveText('completed');
  // the message reached the pipeline exactly as pasted
  const list = (await (await page.request.get(`/api/executions?pipeline_id=${id}&limit=1`)).json()) as { executions: { id: string }[] };
  const run = (await (await page.request.get(`/api/executions/${list.executions[0]!.id}`)).json()) as { inputs: { message: string } };
  expect(run.inputs.message).toBe(ADT);

  await execution.getByTestId('exec-node-parse').click();
  await expect(execution.getByRole('tab', { name: 'HL7 v2 · message' })).toHaveAttribute('aria-selected', 'true');
  const view = execution.getByTestId('hl7v2-view');
  const pid5 = view.locator('tr[data-path="PID-5"]');
  // the field's label as HL7 names it, its parts by their names
  await expect(pid5.getByRole('rowheader')).toHaveText('PID-5 Patient Name XPN');
  await expect(pid5).toContainText('Given Name');
  await expect(pid5).toContainText('ADAM');
  await expect(pid5).toContainText('EVERYMAN');
  // coded values carry their table meaning (from the server's v2 tables)
  await expect(view.locator('tr[data-path="PID-8"]')).toContainText('Male');
  await expect(view.locator('tr[data-path="PV1-2"]')).toContainText('Preadmit');
  // empty fields are hidden until asked for
  await expect(view.locator('tr[data-path="PID-31"]')).toHaveCount(0);
  await view.getByLabel('Show empty').check();
  await expect(view.locator('tr[data-path="PID-31"]')).toHaveCount(1);
  await view.getByLabel('Show empty').uncheck();
  await view.getByRole('searchbox').fill('patient name');
  await expect(view.locator('tr[data-path]')).toHaveCount(1);
  await view.getByRole('searchbox').fill('');
  await pid5.scrollIntoViewIfNeeded();
  await shotOf(execution, 'hl7-view');

  // the JSON is one tab away
  await execution.getByRole('tab', { name: 'JSON' }).click();
  await expect(execution.getByLabel('Node outputs')).toContainText('"message_type": "ADT"');

  // the trigger's text output reads as HL7 too; the ACK as a message
  await execution.getByTestId('exec-node-ack').click();
  await expect(execution.getByTestId('hl7v2-view').locator('tr[data-path="MSA-2"]')).toContainText('MSG00001');

  // the execution page shows the same view
  await page.goto(`/executions/${list.executions[0]!.id}`);
  await page.locator('[data-testid="timeline-row"][data-row-id="parse"]').click();
  const panel = page.getByTestId('node-panel');
  // its input (the pasted text) and its output (the parsed message) both read as HL7
  await expect(panel.getByRole('region', { name: 'text as HL7 v2' }).locator('tr[data-path="PID-5"]')).toContainText('Patient Name');
  await expect(panel.getByRole('region', { name: 'message as HL7 v2' }).locator('tr[data-path="PID-5"]')).toContainText('Patient Name');
  await shotOf(panel, 'hl7-run-page');

  // a feed's message ends its segments with CR: pasted so, it runs so (a textarea alone would turn CR into LF)
  const feed = ADT.replace(/\n/g, '\r');
  await page.goto(`/pipelines/${id}`);
  await page.getByRole('button', { name: 'Test run' }).click();
  const again = page.getByRole('dialog', { name: 'Run in test mode' });
  await again.getByRole('textbox', { name: 'message' }).click();
  await page.keyboard.press('ControlOrMeta+A');
  await paste(page, feed);
  await expect(again.getByRole('combobox', { name: 'Line ends' })).toHaveValue('\r');
  await expect(again.getByTestId('reading-message')).toContainText('24 segments');
  await again.getByRole('button', { name: 'Run test' }).click();
  await expect(page.getByRole('region', { name: 'Execution' }).getByTestId('execution-status')).toHaveText('completed');
  const latest = (await (await page.request.get(`/api/executions?pipeline_id=${id}&limit=1`)).json()) as { executions: { id: string }[] };
  expect(latest.executions[0]!.id).not.toBe(list.executions[0]!.id);
  const second = (await (await page.request.get(`/api/executions/${latest.executions[0]!.id}`)).json()) as { inputs: { message: string } };
  expect(second.inputs.message).toBe(feed);
  expect(crashes).toEqual([]);
});

test('an 837 in the X12 view and its FHIR bundle in the FHIR view', async ({ page }) => {
  test.setTimeout(120_000);
  const crashes = watchErrors(page);
  await signUp(page);
  const id = await createPipeline(
    page,
    `Claims ${Date.now()}`,
    [
      { id: 'in', type: 'manual-trigger', config: { fields: { claim: 'text' } } },
      { id: 'x12', type: 'x12-parse' },
      { id: 'fhir', type: 'x12-837-to-fhir' },
      { id: 'out', type: 'pipeline-output' },
    ],
    [
      ['in', 'claim', 'x12', 'text'],
      ['x12', 'interchange', 'fhir', 'interchange'],
      ['fhir', 'bundle', 'out', 'value'],
    ],
  );
  const dialog = await testRun(page, id, 'claim', CLAIM);
  await expect(dialog.getByTestId('reading-claim')).toContainText('X12 837P · 1 transaction');
  await dialog.getByRole('button', { name: 'Run test' }).click();
  const execution = page.getByRole('region', { name: 'Execution' });
  await expect(execution.getByTestId('execution-status')).toHaveText('completed');

  await execution.getByTestId('exec-node-x12').click();
  const x12 = execution.getByTestId('x12-view');
  await expect(x12).toContainText('Transaction set 837P');
  const billing = x12.locator('details[data-loop="2000A"]');
  await expect(billing.locator('summary').first()).toContainText('Billing provider hierarchical level');
  await expect(x12.locator('details[data-loop="2300"] > summary')).toContainText('2300');
  await expect(x12.locator('li[data-segment="CLM"]').first()).toContainText('Health Claim');
  await x12.locator('details[data-loop="2300"]').scrollIntoViewIfNeeded();
  await shotOf(execution, 'x12-view');

  await execution.getByTestId('exec-node-fhir').click();
  const fhir = execution.getByTestId('fhir-view');
  const resources = fhir.getByRole('list', { name: 'Resources' });
  await expect(resources).toContainText('Claim');
  await resources
    .getByRole('button', { name: /^Patient/ })
    .first()
    .click();
  await expect(fhir.getByLabel('Selected resource')).toContainText('"resourceType": "Patient"');
  await shotOf(execution, 'fhir-view');

  // on the execution's page, with more room
  const list = (await (await page.request.get(`/api/executions?pipeline_id=${id}&limit=1`)).json()) as { executions: { id: string }[] };
  await page.goto(`/executions/${list.executions[0]!.id}`);
  const panel = page.getByTestId('node-panel');
  await page.locator('[data-testid="timeline-row"][data-row-id="x12"]').click();
  await expect(panel.getByRole('region', { name: 'interchange as X12' }).locator('details[data-loop="2300"]')).toBeVisible();
  await shotOf(panel, 'x12-run-page');
  await page.locator('[data-testid="timeline-row"][data-row-id="fhir"]').click();
  await expect(panel.getByRole('region', { name: 'bundle as FHIR' }).getByRole('list', { name: 'Resources' })).toContainText('Claim');
  await shotOf(panel, 'fhir-run-page');
  expect(crashes).toEqual([]);
});
