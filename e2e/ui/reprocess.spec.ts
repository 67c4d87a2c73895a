import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { signUp } from './support';

/**
 * Bulk reprocess from the executions list (issue 30 §2): production runs fail while their receiver is down; once it
 * is back, the failed runs of the pipeline are selected with the list's filters, reprocessed in one go, and the
 * progress shows them all done. The receiver counts each Idempotency-Key it is sent. UI_SHOTS=1 saves /tmp/reprocess-*.png.
 */
test('failed runs selected in the executions list are reprocessed, with progress, each write applied once', async ({ page }) => {
  test.setTimeout(180_000);
  let down = true;
  const applied = new Map<string, number>();
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const key = String(req.headers['idempotency-key']);
      if (down) return void res.writeHead(503).end('down');
      applied.set(key, (applied.get(key) ?? 0) + 1);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/orders`;
  try {
    await signUp(page, 'Rita Reprocess');
    const created = await page.request.post('/api/pipelines', {
      data: {
        name: 'Orders to the lab',
        definition: {
          nodes: [
            { id: 'in', type: 'manual-trigger', config: {}, position: { x: 0, y: 0 } },
            { id: 'send', type: 'http-request', config: { url }, position: { x: 260, y: 0 } },
          ],
          connections: [{ source: 'in', source_port: 'event', target: 'send', target_port: 'body' }],
        },
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const id = ((await created.json()) as { id: string }).id;
    expect((await page.request.post(`/api/pipelines/${id}/deploy`)).status()).toBe(200);
    for (let i = 0; i < 6; i++) {
      const run = await page.request.post('/api/execute', { data: { pipeline_id: id, inputs: { order: i } } });
      expect(((await run.json()) as { status: string }).status).toBe('failed');
    }
    down = false;

    await page.goto(`/executions?status=failed&pipeline=${id}`);
    const bar = page.getByRole('region', { name: 'Reprocess in bulk' });
    await expect(bar.getByRole('status', { name: 'Runs to reprocess' })).toContainText('6 failed production runs not yet retried');
    await bar.getByLabel('Error codes').fill('HTTP_ERROR');
    await expect(bar.getByRole('button', { name: 'Reprocess 6 runs' })).toBeEnabled();
    await bar.getByLabel('Error codes').fill('TIMEOUT');
    await expect(bar.getByRole('status', { name: 'Runs to reprocess' })).toContainText('0 failed production runs');
    await bar.getByLabel('Error codes').fill('HTTP_ERROR');
    await bar.getByRole('button', { name: 'Reprocess 6 runs' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Reprocess' }).click();

    const progress = bar.getByRole('status', { name: 'Reprocess progress' });
    await expect(progress).toContainText('Reprocess complete', { timeout: 90_000 });
    await expect(progress).toContainText('6 of 6 finished');
    await expect(progress).toContainText('6 done');
    await expect(progress).toContainText('0 failed');
    await expect(bar.getByRole('status', { name: 'Runs to reprocess' })).toContainText('0 failed production runs');
    if (process.env.UI_SHOTS) await page.screenshot({ path: '/tmp/reprocess-done.png', fullPage: true });

    // the retries are in the list, each applied once at the receiver
    await page.goto(`/executions?status=completed&pipeline=${id}`);
    await expect(page.locator('tr[data-run-id]')).toHaveCount(6);
    expect([...applied.values()]).toEqual([1, 1, 1, 1, 1, 1]);
  } finally {
    await new Promise<void>((resolve) => (receiver.closeAllConnections(), receiver.close(() => resolve())));
  }
});
