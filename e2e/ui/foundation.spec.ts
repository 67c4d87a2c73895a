import { expect, test, type Page } from '@playwright/test';

/**
 * The web app's foundation end to end: sign up, manage pipelines, create an API key in the UI and use
 * it against the REST API, revoke it, read the API reference. UI_SHOTS=1 also saves screenshots to /tmp.
 */

const API = `http://127.0.0.1:${process.env.E2E_PORT ?? 3210}/api`;

async function shot(page: Page, name: string) {
  if (process.env.UI_SHOTS) await page.screenshot({ path: `/tmp/ui-${name}.png`, fullPage: true });
}

function rowOf(page: Page, text: string) {
  return page.getByRole('row').filter({ hasText: text });
}

test('sign up, pipelines, API keys used over REST, API reference', async ({ page, context, browser }) => {
  const outside: string[] = [];
  context.on('request', (r) => {
    const url = new URL(r.url());
    if (url.protocol.startsWith('http') && !['127.0.0.1', 'localhost'].includes(url.hostname)) outside.push(r.url());
  });
  const crashes: string[] = [];
  page.on('pageerror', (e) => crashes.push(e.message));

  const stamp = Date.now();
  const email = `ada.${stamp}@example.org`;
  const password = 'correct horse battery';
  const name = `ADT feed ${stamp}`;
  const renamed = `ADT to FHIR ${stamp}`;

  // signed-in pages send visitors to /sign-in
  await page.goto('/pipelines');
  await expect(page).toHaveURL(/\/sign-in$/);
  await shot(page, 'sign-in');

  // sign up
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await page.getByLabel('Name').fill('Ada Lovelace');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await shot(page, 'sign-up');
  await page.getByRole('button', { name: 'Create account' }).click();

  // the empty pipelines page teaches the first step
  await expect(page).toHaveURL(/\/pipelines$/);
  await expect(page.getByRole('heading', { name: 'Pipelines', level: 1 })).toBeVisible();
  await expect(page.getByText(email).filter({ visible: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No pipelines yet' })).toBeVisible();
  await shot(page, 'pipelines-empty');

  // create
  await page.getByRole('button', { name: 'New pipeline' }).click();
  const createDialog = page.getByRole('dialog', { name: 'New pipeline' });
  await createDialog.getByRole('button', { name: 'Create pipeline' }).click();
  await expect(createDialog.getByText('Give the pipeline a name.')).toBeVisible();
  await createDialog.getByLabel('Name').fill(name);
  await createDialog.getByLabel('Description').fill('Admissions from the hospital EHR');
  await shot(page, 'pipeline-create');
  await createDialog.getByRole('button', { name: 'Create pipeline' }).click();
  await expect(createDialog).toBeHidden();
  // creating opens the editor on the new pipeline; back on the list, it is not deployed yet
  await expect(page).toHaveURL(/\/pipelines\/[0-9a-f-]+$/);
  await page.goto('/pipelines');
  await expect(rowOf(page, name)).toContainText('Not deployed');
  await expect(rowOf(page, name)).toContainText('v1');
  await expect(page.getByText('Showing 1–1 of 1')).toBeVisible();

  // rename
  await page.getByRole('button', { name: `Rename ${name}` }).click();
  const renameDialog = page.getByRole('dialog', { name: 'Rename pipeline' });
  await renameDialog.getByLabel('Name').fill(renamed);
  await renameDialog.getByRole('button', { name: 'Save name' }).click();
  await expect(renameDialog).toBeHidden();
  const row = rowOf(page, renamed);
  await expect(row).toContainText('v2');

  // an empty pipeline is not deployed: the refusal names the problem, and the pipeline stays active
  await row.getByRole('button', { name: `Deploy ${renamed}`, exact: true }).click();
  const refusal = page.locator('[data-sonner-toast]').filter({ hasText: 'Fix these problems before deploying' });
  await expect(refusal).toContainText('The pipeline has no nodes.');
  await shot(page, 'pipeline-deploy-refused');
  await expect(row).toContainText('Not deployed');

  // give it a trigger and an output (as the editor would save them), then deploy
  const mine = await page.request.get('/api/pipelines?limit=100');
  const id = ((await mine.json()).pipelines as { id: string; name: string }[]).find((p) => p.name === renamed)!.id;
  const saved = await page.request.put(`/api/pipelines/${id}`, {
    data: {
      definition: {
        nodes: [
          { id: 'in', type: 'manual-trigger', config: {}, position: { x: 0, y: 0 } },
          { id: 'out', type: 'pipeline-output', config: {}, position: { x: 240, y: 0 } },
        ],
        connections: [{ id: 'c1', source: 'in', source_port: 'event', target: 'out', target_port: 'value' }],
      },
    },
  });
  expect(saved.status()).toBe(200);
  await page.reload();

  // deploy; a deployed pipeline cannot be deleted
  await row.getByRole('button', { name: `Deploy ${renamed}`, exact: true }).click();
  await expect(row).toContainText('Deployed');
  await shot(page, 'pipelines-list');
  await row.getByRole('button', { name: `Delete ${renamed}` }).click();
  const refuseDialog = page.getByRole('dialog', { name: `Can't delete “${renamed}” yet` });
  await expect(refuseDialog).toContainText('deployed pipelines cannot be deleted');
  await shot(page, 'pipeline-delete-deployed');
  await refuseDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(refuseDialog).toBeHidden();

  // undeploy
  await row.getByRole('button', { name: `Undeploy ${renamed}` }).click();
  await expect(row).toContainText('Not deployed');

  // the server's refusal: the pipeline gets deployed in another tab while this one asks to delete it
  await row.getByRole('button', { name: `Delete ${renamed}` }).click();
  const deleteDialog = page.getByRole('dialog', { name: `Delete “${renamed}”?` });
  await expect(deleteDialog).toBeVisible();
  const other = await context.newPage();
  await other.goto('/pipelines');
  await rowOf(other, renamed)
    .getByRole('button', { name: `Deploy ${renamed}`, exact: true })
    .click();
  await expect(rowOf(other, renamed)).toContainText('Deployed');
  await other.close();
  await deleteDialog.getByRole('button', { name: 'Delete pipeline' }).click();
  const refused = page.getByRole('dialog', { name: `Can't delete “${renamed}” yet` });
  await expect(refused.getByRole('alert')).toContainText('is deployed: undeploy it before deleting it');
  await expect(row).toContainText('Deployed');
  await shot(page, 'pipeline-delete-refused');
  // …and the dialog offers the way out
  await refused.getByRole('button', { name: 'Undeploy' }).click();
  await expect(page.getByRole('dialog', { name: `Delete “${renamed}”?` })).toBeVisible();
  await expect(row).toContainText('Not deployed');
  await page
    .getByRole('dialog', { name: `Delete “${renamed}”?` })
    .getByRole('button', { name: 'Cancel' })
    .click();

  // Settings → API keys: create a read+write key
  await page.getByRole('link', { name: 'API keys' }).click();
  await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'New API key' }).click();
  const keyDialog = page.getByRole('dialog', { name: 'New API key' });
  await keyDialog.getByLabel('Name').fill('E2E client');
  await keyDialog.getByRole('checkbox', { name: 'read', exact: true }).check();
  await keyDialog.getByRole('checkbox', { name: 'write', exact: true }).check();
  await shot(page, 'api-key-create');
  await keyDialog.getByRole('button', { name: 'Create key' }).click();
  const createdDialog = page.getByRole('dialog', { name: 'API key created' });
  await expect(createdDialog).toContainText('you will not see it again');
  const key = await createdDialog.getByLabel('API key', { exact: true }).inputValue();
  const orgId = await createdDialog.getByLabel('Organization ID', { exact: true }).inputValue();
  expect(key).toMatch(/^cfk_[A-Za-z0-9_-]{16,}$/);
  expect(orgId).not.toBe('');
  await shot(page, 'api-key-created');
  await createdDialog.getByRole('button', { name: 'Done' }).click();
  const keyRow = rowOf(page, 'E2E client');
  await expect(keyRow).toContainText('read');
  await expect(keyRow).toContainText('write');
  await expect(keyRow).toContainText('Active');
  await expect(keyRow).toContainText(key.slice(0, 12));
  await shot(page, 'api-keys');

  // the key works against the REST API and sees the pipeline made in the UI
  const headers = { Authorization: `Bearer ${key}`, 'X-Organization-ID': orgId };
  const listed = await fetch(`${API}/pipelines`, { headers });
  expect(listed.status).toBe(200);
  const body = (await listed.json()) as { pipelines: Array<{ name: string; status: string }> };
  expect(body.pipelines.map((p) => p.name)).toContain(renamed);

  // paging: with 22 pipelines the list shows 20 a page
  for (let i = 1; i <= 21; i++) {
    const made = await fetch(`${API}/pipelines`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Bulk ${String(i).padStart(2, '0')} ${stamp}` }),
    });
    expect(made.status).toBe(201);
  }
  await page.getByRole('link', { name: 'Pipelines' }).click();
  await expect(page.getByText('Showing 1–20 of 22')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\?page=2$/);
  await expect(page.getByText('Showing 21–22 of 22')).toBeVisible();
  await expect(rowOf(page, renamed)).toBeVisible(); // the oldest comes last
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
  await shot(page, 'pipelines-page-2');
  await page.getByRole('link', { name: 'API keys' }).click();

  // revoke it in the UI: the next request is refused
  await keyRow.getByRole('button', { name: 'Revoke E2E client' }).click();
  const revokeDialog = page.getByRole('dialog', { name: 'Revoke “E2E client”?' });
  await revokeDialog.getByRole('button', { name: 'Revoke key' }).click();
  await expect(revokeDialog).toBeHidden();
  await expect(keyRow).toContainText('Revoked');
  await expect(keyRow.getByRole('button', { name: 'Revoke E2E client' })).toHaveCount(0);
  const refusedKey = await fetch(`${API}/pipelines`, { headers });
  expect(refusedKey.status).toBe(401);
  expect(await refusedKey.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED', status: 401 } });

  // sign out, and back in
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid email or password' })).toBeVisible();
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/pipelines$/);
  await expect(page.getByText('Showing 1–20 of 22')).toBeVisible();

  // the API reference, without signing in
  const stranger = await browser.newContext();
  stranger.on('request', (r) => {
    if (!/^https?:\/\/(127\.0\.0\.1|localhost)[:/]/.test(r.url()) && r.url().startsWith('http')) outside.push(r.url());
  });
  const docs = await stranger.newPage();
  await docs.goto('/api/docs');
  await expect(docs.getByRole('heading', { name: /Clinflow API/ })).toBeVisible();
  await expect(docs.getByText('/pipelines/{id}/deploy').first()).toBeVisible();
  await shot(docs, 'api-docs');
  await stranger.close();

  expect(outside, 'requests to outside hosts').toEqual([]);
  expect(crashes, 'uncaught errors in the page').toEqual([]);
});
