import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Signs a new user up in the browser (1440×900), as a person would, and waits for the pipelines page. The
 * email is `<prefix>.<stamp>@example.org`, unique per run; the stamp is returned for other unique values.
 */
export async function signUp(page: Page, name: string, prefix = name.split(' ')[0]!.toLowerCase()): Promise<{ email: string; stamp: string }> {
  await page.setViewportSize({ width: 1440, height: 900 });
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const email = `${prefix}.${stamp}@example.org`;
  await page.goto('/sign-up');
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/pipelines$/);
  return { email, stamp };
}

/** Replaces the text of a CodeMirror editor (the run dialog's inputs). */
export async function fillCode(editor: Locator, text: string): Promise<void> {
  const content = editor.locator('.cm-content');
  await content.click();
  await content.press('ControlOrMeta+a');
  await content.press('Delete');
  await content.fill(text);
}
