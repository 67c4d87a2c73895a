import net from 'node:net';
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { signUp } from './support';

/**
 * An MLLP feed's runs keep the order their messages came in: the run page of a message's execution says which run it
 * started after, and links to it. UI_SHOTS=1 saves /tmp/feed-order.png.
 */

const DIR = '/work/shared/data/hl7v2/messages';
const ADT = fs
  .readdirSync(DIR)
  .filter((f) => f.startsWith('ADT-'))
  .sort()
  .slice(0, 2)
  .map((f) => fs.readFileSync(`${DIR}/${f}`, 'utf8').replace(/\r?\n/g, '\r').trim());

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

/** Sends the messages on one connection without waiting for ACKs; resolves once every ACK came. */
function send(port: number, texts: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    let acks = 0;
    const socket = net.connect({ host: '127.0.0.1', port }, () => socket.write(texts.map((t) => `\x0b${t}\x1c\r`).join('')));
    socket.on('data', (d) => {
      acks += d.toString().split('\x1c').length - 1;
      if (acks >= texts.length) {
        socket.end();
        resolve();
      }
    });
    socket.on('error', reject);
  });
}

test("a feed's run page says which run it started after, and links to it", async ({ page }) => {
  await signUp(page, 'Olu Feed');
  const port = await freePort();
  const created = await page.request.post('/api/pipelines', {
    data: {
      name: 'ADT feed in order',
      definition: {
        nodes: [
          { id: 'in', type: 'mllp-listener-trigger', config: { port }, position: { x: 0, y: 0 } },
          { id: 'parse', type: 'hl7v2-parse', config: {}, position: { x: 260, y: 0 } },
          { id: 'out', type: 'pipeline-output', config: {}, position: { x: 520, y: 0 } },
        ],
        connections: [
          { source: 'in', source_port: 'message', target: 'parse', target_port: 'text' },
          { source: 'parse', source_port: 'message', target: 'out', target_port: 'value' },
        ],
      },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { id: string }).id;
  expect((await page.request.post(`/api/pipelines/${id}/deploy`)).status()).toBe(200);
  try {
    await send(port, ADT);
    type Run = { id: string; status: string; starts_after: string | null };
    let runs: Run[] = [];
    await expect
      .poll(
        async () => {
          const list = await page.request.get(`/api/executions?pipeline_id=${id}`);
          runs = ((await list.json()) as { executions: Run[] }).executions;
          return runs.filter((r) => r.status === 'completed').length;
        },
        { timeout: 20_000 },
      )
      .toBe(2);
    const second = runs.find((r) => r.starts_after)!;
    const first = runs.find((r) => r.id === second.starts_after)!;
    expect(first.starts_after).toBeNull();

    await page.goto(`/executions/${second.id}`);
    const after = page.locator('div', { has: page.locator('dt', { hasText: /^Runs after$/ }) }).last();
    await expect(after.getByRole('link')).toHaveText(first.id.slice(0, 8));
    if (process.env.UI_SHOTS) await page.screenshot({ path: '/tmp/feed-order.png', fullPage: true });
    await after.getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`/executions/${first.id}$`));
    // the first message of the feed started after nothing
    await expect(page.locator('dt', { hasText: /^Runs after$/ })).toHaveCount(0);
  } finally {
    await page.request.post(`/api/pipelines/${id}/undeploy`);
  }
});

test("a listener set in its settings to keep each patient's order", async ({ page }) => {
  await signUp(page, 'Ama Feed');
  const definition = {
    nodes: [
      { id: 'in', type: 'mllp-listener-trigger', config: { port: 2575 }, position: { x: 0, y: 0 } },
      { id: 'parse', type: 'hl7v2-parse', config: {}, position: { x: 260, y: 0 } },
    ],
    connections: [{ source: 'in', source_port: 'message', target: 'parse', target_port: 'text' }],
  };
  const id = ((await (await page.request.post('/api/pipelines', { data: { name: 'ADT by patient', definition } })).json()) as { id: string }).id;
  await page.goto(`/pipelines/${id}`);
  await page.locator('.react-flow__node[data-id="in"]').click();
  const panel = page.getByRole('region', { name: 'Node configuration' });
  const order = panel.locator('select[id$="_order"]');
  await expect(order.locator('option:checked')).toHaveText('connection');
  await order.selectOption({ label: 'patient' });
  if (process.env.UI_SHOTS) await page.screenshot({ path: '/tmp/feed-order-patient.png', fullPage: true });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect
    .poll(async () => {
      const saved = (await (await page.request.get(`/api/pipelines/${id}`)).json()) as { definition: { nodes: { id: string; config: { order?: string } }[] } };
      return saved.definition.nodes.find((n) => n.id === 'in')?.config.order;
    })
    .toBe('patient');
});
