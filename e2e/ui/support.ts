import { expect, test, type Locator, type Page } from '@playwright/test';

/**
 * A new user, signed up and signed in, on the pipelines page (at 1440×900 unless told). The email is
 * `<prefix>.<stamp>@example.org`, unique per run; the stamp is returned for other unique values.
 *
 * The account is made over the API the sign-up form calls (better-auth's POST /api/auth/sign-up/email) with the
 * page's own request context, which shares the browser's cookies: its session cookie signs the browser in. Filling
 * in the form took a page load and a redirect in each of some forty tests; foundation.spec.ts signs up through
 * the form (and members.spec.ts through an invitation link), for the form itself.
 */
export async function signUp(
  page: Page,
  name: string,
  prefix = name.split(' ')[0]!.toLowerCase(),
  viewport = { width: 1440, height: 900 },
): Promise<{ email: string; stamp: string }> {
  await page.setViewportSize(viewport);
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const email = `${prefix}.${stamp}@example.org`;
  // the Origin header a browser sends with the form's request: better-auth refuses a request from another origin
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const res = await page.request.post('/api/auth/sign-up/email', { data: { name, email, password: 'correct horse battery' }, headers: { origin } });
  expect(res.status(), await res.text()).toBe(200);
  await page.goto('/pipelines');
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

/**
 * A canvas element's box once it has stopped moving (the same on two reads 50 ms apart): the editor fits the view to
 * the nodes once they are measured, so a box read as soon as a node shows may be where it no longer is.
 */
export async function settledBox(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  let last = await locator.boundingBox();
  for (let i = 0; i < 40; i++) {
    await new Promise((r) => setTimeout(r, 50));
    const now = await locator.boundingBox();
    if (now && last && now.x === last.x && now.y === last.y && now.width === last.width && now.height === last.height) return now;
    last = now;
  }
  throw new Error('the element kept moving (or is not visible)');
}
