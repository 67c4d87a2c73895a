import { expect, test, type Page } from '@playwright/test';
import { signUp } from './support';

/**
 * Organization members: an admin invites by link with a role, the invited person signs up into the
 * organization, the admin changes the role and removes them; the last admin cannot be demoted.
 * UI_SHOTS=1 saves /tmp/members-*.png.
 */

async function shot(page: Page, name: string) {
  if (process.env.UI_SHOTS) await page.screenshot({ path: `/tmp/members-${name}.png` });
}

test('invite a member by link, change their role, remove them', async ({ page, browser }) => {
  const { stamp } = await signUp(page, 'Florence Nightingale');

  await page.getByRole('link', { name: 'Members' }).click();
  await expect(page.getByRole('heading', { name: 'Members', level: 1 })).toBeVisible();
  await expect(page.getByTestId(`member-florence.${stamp}@example.org`)).toContainText('you');

  const invited = `mary.${stamp}@example.org`;
  await page.getByRole('button', { name: 'Invite member' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite a member' });
  await dialog.getByLabel('Email').fill(invited);
  await dialog.getByLabel('Role').selectOption('viewer');
  await dialog.getByRole('button', { name: 'Create invitation link' }).click();
  const link = await dialog.getByRole('textbox', { name: `Invitation link for ${invited}` }).inputValue();
  expect(link).toMatch(/\/sign-up\?invite=cfi_/);
  await shot(page, 'invite');
  await dialog.getByRole('button', { name: 'Done' }).click();

  // the invited person signs up with the link, in a browser of their own
  const other = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const them = await other.newPage();
  await them.goto(link);
  await expect(them.getByText("You are invited to join Florence Nightingale's organization as a viewer.")).toBeVisible();
  await expect(them.getByLabel('Email')).toHaveValue(invited);
  await them.getByLabel('Name').fill('Mary Seacole');
  await them.getByLabel('Password').fill('correct horse battery');
  await them.getByRole('button', { name: 'Create account' }).click();
  await expect(them).toHaveURL(/\/pipelines$/);
  await expect(them.getByText("Florence Nightingale's organization")).toBeVisible();
  await other.close();

  await page.reload();
  const row = page.getByTestId(`member-${invited}`);
  await expect(row).toContainText('Mary Seacole');
  await expect(row.getByLabel(`Role of ${invited}`)).toHaveValue('viewer');
  await row.getByLabel(`Role of ${invited}`).selectOption('member');
  await page.reload();
  await expect(page.getByTestId(`member-${invited}`).getByLabel(`Role of ${invited}`)).toHaveValue('member');
  await shot(page, 'list');

  // the only admin cannot step down
  await page
    .getByTestId(`member-florence.${stamp}@example.org`)
    .getByLabel(/Role of/)
    .selectOption('viewer');
  await expect(page.getByText("this is the organization's only admin")).toBeVisible();

  await page.getByTestId(`member-${invited}`).getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('dialog', { name: 'Remove Mary Seacole?' }).getByRole('button', { name: 'Remove member' }).click();
  await expect(page.getByTestId(`member-${invited}`)).toHaveCount(0);
});
