import { expect, test, type Page } from '@playwright/test';
import { signUp } from './support';

/**
 * A person with an account accepts an invitation to another organization and keeps their own: the navigation
 * then shows an organization switcher, and each organization's pipelines show only while it is the active one.
 * UI_SHOTS=1 saves /tmp/org-switch-*.png (the navigation with the switcher at 1440×900).
 */

async function shot(page: Page, name: string) {
  if (process.env.UI_SHOTS) await page.screenshot({ path: `/tmp/org-switch-${name}.png` });
}

test('accept an invitation with an existing account, switch organization in the navigation, see the other organization’s pipelines', async ({
  page,
  browser,
}) => {
  const { stamp } = await signUp(page, 'Florence Nightingale');
  expect((await page.request.post('/api/pipelines', { data: { name: `Ward admissions ${stamp}` } })).status()).toBe(201);
  // one organization: no switcher
  await expect(page.getByRole('combobox', { name: 'Organization' })).toHaveCount(0);

  // Mary has an account (and an organization, with a pipeline) of her own
  const mine = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const mary = await mine.newPage();
  const { email } = await signUp(mary, 'Mary Seacole');
  expect((await mary.request.post('/api/pipelines', { data: { name: `Lab results ${stamp}` } })).status()).toBe(201);

  // Florence invites her: the link signs in rather than up
  await page.getByRole('link', { name: 'Members' }).click();
  await page.getByRole('button', { name: 'Invite member' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite a member' });
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Role').selectOption('member');
  await dialog.getByRole('button', { name: 'Create invitation link' }).click();
  const link = await dialog.getByRole('textbox', { name: `Invitation link for ${email}` }).inputValue();
  expect(link).toMatch(/\/sign-in\?invite=cfi_/);
  await expect(dialog.getByText(`${email} already has a Clinflow account`)).toBeVisible();
  await dialog.getByRole('button', { name: 'Done' }).click();

  // Mary, signed in already, opens the link and joins
  await mary.goto(link);
  await expect(mary.getByText("You are invited to join Florence Nightingale's organization as a member.")).toBeVisible();
  await expect(mary.getByText(`You are signed in as ${email}`)).toBeVisible();
  await shot(mary, 'join');
  await mary.getByRole('button', { name: "Join Florence Nightingale's organization" }).click();
  await expect(mary).toHaveURL(/\/pipelines$/);
  // her session now acts in Florence's organization
  const switcher = mary.getByRole('combobox', { name: 'Organization' });
  await expect(switcher).toBeVisible();
  await expect(switcher.locator('option:checked')).toHaveText("Florence Nightingale's organization");
  await expect(mary.getByText(`Ward admissions ${stamp}`)).toBeVisible();
  await expect(mary.getByText(`Lab results ${stamp}`)).toHaveCount(0);
  await shot(mary, 'nav');

  // switching back to her own shows her own pipelines, and the choice holds across a reload
  await switcher.selectOption({ label: "Mary Seacole's organization" });
  await expect(mary.getByText(`Lab results ${stamp}`)).toBeVisible();
  await expect(mary.getByText(`Ward admissions ${stamp}`)).toHaveCount(0);
  await mary.reload();
  await expect(mary.getByText(`Lab results ${stamp}`)).toBeVisible();
  await expect(mary.getByRole('combobox', { name: 'Organization' }).locator('option:checked')).toHaveText("Mary Seacole's organization");
  // on a pipeline of one organization, a switch goes to the other's list
  await mary.getByText(`Lab results ${stamp}`).click();
  await expect(mary).toHaveURL(/\/pipelines\/[^/]+$/);
  // the editor folds the navigation to icons: the organization's icon says which is active and unfolds it to switch
  const folded = mary.getByRole('button', { name: "Organization: Mary Seacole's organization. Unfold the navigation to switch" });
  await expect(folded).toBeVisible();
  await shot(mary, 'folded');
  await folded.click();
  await expect(mary.getByRole('combobox', { name: 'Organization' })).toBeFocused();
  await mary.getByRole('combobox', { name: 'Organization' }).selectOption({ label: "Florence Nightingale's organization" });
  await expect(mary).toHaveURL(/\/pipelines$/);
  await expect(mary.getByText(`Ward admissions ${stamp}`)).toBeVisible();
  await mine.close();

  // Florence sees Mary among her members; her own navigation still has no switcher
  await page.reload();
  await expect(page.getByTestId(`member-${email}`)).toContainText('Mary Seacole');
  await expect(page.getByRole('combobox', { name: 'Organization' })).toHaveCount(0);

  // the link also works by signing in, in a browser without a session
  const fresh = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const again = await fresh.newPage();
  await again.goto(link);
  await expect(again.getByText("Sign in to join Florence Nightingale's organization as a member.")).toBeVisible();
  await expect(again.getByLabel('Email')).toHaveValue(email);
  await again.getByLabel('Password').fill('correct horse battery');
  await again.getByRole('button', { name: 'Sign in and join' }).click();
  await expect(again).toHaveURL(/\/pipelines$/);
  await expect(again.getByText(`Ward admissions ${stamp}`)).toBeVisible();
  await fresh.close();
});
