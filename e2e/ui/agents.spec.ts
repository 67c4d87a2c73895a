import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { signUp } from './support';

/**
 * Agents in the browser: copy the HL7 troubleshooter template, chat with it in the playground (the offline
 * model calls its hl7v2_parse tool; the call, its result and the answer stream in), find the conversation in
 * the history after a reload, save a version and compare it. UI_SHOTS=1 saves /tmp/agents-*.png.
 */

const ADT = readFileSync(path.resolve(import.meta.dirname, '../../../shared/data/hl7v2/messages/ADT-A01-01.hl7'), 'utf8');

test('copy the HL7 troubleshooter, chat with it, reopen the conversation, save a version', async ({ page }) => {
  await signUp(page, 'Ada Lovelace');

  await page.getByRole('link', { name: 'Agents' }).click();
  await expect(page.getByRole('heading', { name: 'No agents yet' })).toBeVisible();
  await page.getByTestId('template-HL7 troubleshooter').getByRole('button', { name: 'Use template HL7 troubleshooter' }).click();
  await expect(page).toHaveURL(/\/agents\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'HL7 troubleshooter', level: 1 })).toBeVisible();
  await expect(page.getByTestId('agent-status')).toHaveText('Active');
  await expect(page.getByRole('list', { name: 'Assigned tools' })).toContainText('hl7v2_parse');
  await expect(page.getByLabel('Model')).toHaveValue('clinflow/offline');
  if (process.env.UI_SHOTS) await page.screenshot({ path: '/tmp/agents-editor.png' });

  // the playground streams the turn: the tool call with its result, then the answer
  await page.getByRole('textbox', { name: 'Message' }).fill(`hl7v2_parse this message: ${ADT}`);
  await page.getByRole('button', { name: 'Send' }).click();
  const answer = page.getByTestId('message-assistant').last();
  const call = answer.getByTestId('step-tool-call');
  await expect(call).toContainText('hl7v2_parse');
  await expect(answer).toHaveAttribute('data-status', 'complete');
  await expect(answer.getByTestId('answer')).toContainText('hl7v2_parse returned');
  if (process.env.UI_SHOTS) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: '/tmp/agents-chat.png' });
  }
  await call.getByText('Result').click();
  await expect(call.getByLabel('hl7v2_parse result')).toContainText('ADT^A01');

  // after a reload the conversation is in the history and opens with its steps
  await page.reload();
  await page.getByRole('button', { name: 'History' }).click();
  const conversations = page.getByRole('list', { name: 'Conversations' });
  await expect(conversations.getByRole('button')).toHaveCount(1);
  await expect(conversations).toContainText('2 messages');
  await conversations.getByRole('button').first().click();
  await expect(page.getByTestId('message-user')).toContainText('hl7v2_parse this message: MSH|');
  const stored = page.getByTestId('message-assistant');
  await expect(stored.getByTestId('step-tool-call')).toContainText('hl7v2_parse');
  await expect(stored.getByTestId('answer')).toContainText('hl7v2_parse returned');
  await expect(page.getByText('Continuing this conversation')).toBeVisible();
  if (process.env.UI_SHOTS) await page.screenshot({ path: '/tmp/agents-history.png' });

  // a version with a note, listed, and compared with a changed configuration
  await page.getByLabel('Version note').fill('first cut');
  await page.getByRole('button', { name: 'Save version' }).click();
  const versions = page.getByRole('list', { name: 'Versions' });
  await expect(versions.getByTestId('agent-version-1')).toContainText('first cut');
  await page.getByLabel('Temperature').fill('0.7');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Unsaved changes')).toBeHidden();
  await versions.getByRole('button', { name: 'Compare version 1 with the current configuration' }).click();
  const diff = page.getByRole('dialog', { name: 'Version 1 → current configuration' });
  await expect(diff.locator('[data-kind="removed"]')).toHaveText(/"temperature": 0\.2/);
  await expect(diff.locator('[data-kind="added"]')).toHaveText(/"temperature": 0\.7/);
  if (process.env.UI_SHOTS) await page.screenshot({ path: '/tmp/agents-diff.png' });
  await diff.getByRole('button', { name: 'Close dialog' }).click();

  // a FHIR search tool without its connector keeps the agent from deploying, and says so
  await page.getByLabel('Tool to add').selectOption('fhir_search');
  await page.getByRole('button', { name: 'Add tool' }).click();
  await expect(page.getByTestId('tool-fhir_search')).toContainText('Required before the agent can be deployed.');
  await page.getByRole('button', { name: 'Deploy' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The agent cannot be deployed yet' })).toContainText('fhir_search');
  await page.getByRole('button', { name: 'Remove fhir_search' }).click();
  await expect(page.getByTestId('tool-fhir_search')).toHaveCount(0);
  await page.getByRole('button', { name: 'Deploy' }).click();
  await expect(page.getByTestId('agent-status')).toHaveText('Deployed');

  // the public invoke panel: a key for this agent only, filled into the curl, which then works
  await page.getByRole('button', { name: 'Create a key for this agent' }).click();
  const command = page.getByLabel('Invoke command', { exact: true });
  await expect(command).toContainText(/Bearer cfk_/);
  if (process.env.UI_SHOTS) await command.screenshot({ path: '/tmp/agents-invoke.png' });
  const text = (await command.textContent()) ?? '';
  const url = /curl -X POST (\S+)/.exec(text)![1]!;
  const key = /Bearer (cfk_\S+)"/.exec(text)![1]!;
  const org = /X-Organization-ID: ([^"]+)"/.exec(text)![1]!;
  const invoked = await page.request.post(url, {
    headers: { Authorization: `Bearer ${key}`, 'X-Organization-ID': org },
    data: { input_data: { text: `hl7v2_parse this message: ${ADT}` } },
  });
  expect(invoked.status()).toBe(200);
  expect(((await invoked.json()) as { output: string }).output).toContain('hl7v2_parse returned');
  if (process.env.UI_SHOTS) await page.screenshot({ path: '/tmp/agents-page-full.png', fullPage: true });

  await page.getByRole('link', { name: 'Agents' }).first().click();
  const row = page.getByRole('table', { name: 'Agents' }).getByRole('row', { name: /HL7 troubleshooter/ });
  await expect(row).toContainText('clinflow/offline');
  await expect(row).toContainText('Deployed');
  if (process.env.UI_SHOTS) await page.screenshot({ path: '/tmp/agents-list.png', fullPage: true });
});
