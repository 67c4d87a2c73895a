import { expect, test, type Page } from '@playwright/test';
import { signUp } from './support';

/**
 * Sticky notes take part in the editor's other features: copied, pasted and duplicated with the nodes they are
 * selected with; moved along by auto-layout without covering a node; listed in the version diff.
 * UI_SHOTS=1 saves /tmp/notes-*.png.
 */

async function shot(page: Page, name: string) {
  if (process.env.UI_SHOTS) await page.screenshot({ path: `/tmp/notes-${name}.png` });
}

interface Box {
  id: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Every node and note of the canvas in flow coordinates (not the screen's: the view may still be moving). */
async function canvasBoxes(page: Page): Promise<Box[]> {
  return page.locator('.react-flow__node').evaluateAll((els) =>
    els.map((el) => {
      const e = el as HTMLElement;
      const m = /translate\(([-\d.]+)px,\s*([-\d.]+)px\)/.exec(e.style.transform)!;
      return { id: e.dataset.id!, x: Number(m[1]), y: Number(m[2]), w: e.offsetWidth, h: e.offsetHeight };
    }),
  );
}

const overlap = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

test('notes are copied and pasted with nodes, kept apart from nodes by auto-layout, and listed in the version diff', async ({ page }) => {
  await signUp(page, 'Cicely Saunders');
  // in, t, out stacked top to bottom; a note beside "in" and one beside "out" (nearer to it than to any other node,
  // the copies pasted below included)
  const definition = {
    nodes: [
      { id: 'in', type: 'manual-trigger', config: { fields: { patient: 'json' } }, position: { x: 0, y: 0 } },
      { id: 't', type: 'jsonata-transform', config: { expression: 'patient.name' }, position: { x: 0, y: 224 } },
      { id: 'out', type: 'pipeline-output', config: { key: 'name' }, position: { x: 0, y: 640 } },
    ],
    connections: [
      { source: 'in', source_port: 'patient', target: 't', target_port: 'input' },
      { source: 't', source_port: 'output', target: 'out', target_port: 'value' },
    ],
    notes: [
      { id: 'note-1', text: '## Intake\nAsk for consent first', position: { x: 304, y: 0 }, color: 'blue' },
      { id: 'note-2', text: 'Goes to the ward board', position: { x: 304, y: 640 } },
    ],
  };
  const res = await page.request.post('/api/pipelines', { data: { name: 'Notes along', definition } });
  expect(res.status()).toBe(201);
  const id = ((await res.json()) as { id: string }).id;
  await page.goto(`/pipelines/${id}`);
  const note = (n: string) => page.getByTestId(`note-${n}`);
  await expect(note('note-1').getByText('Ask for consent first')).toBeVisible();
  await expect(page.getByTestId('node-t')).toBeVisible();

  // select a note and a node together, copy, paste: both come back with new ids, 40 px down and right
  await note('note-1').click();
  await page.getByTestId('node-t').click({ modifiers: ['ControlOrMeta'], position: { x: 12, y: 8 } });
  await page.keyboard.press('ControlOrMeta+c');
  await expect(page.getByText('Copied 1 node and 1 note')).toBeVisible();
  await page.keyboard.press('ControlOrMeta+v');
  await expect(page.getByTestId('node-jsonata-transform-1')).toBeVisible();
  await expect(note('note-3').getByText('Ask for consent first')).toBeVisible();
  await expect(note('note-3')).toHaveAttribute('data-color', 'blue');
  const pasted = await canvasBoxes(page);
  const at = (id: string) => pasted.find((b) => b.id === id)!;
  expect([at('note:note-3').x - at('note:note-1').x, at('note:note-3').y - at('note:note-1').y]).toEqual([40, 40]);
  // the copies are the selection: Ctrl+D duplicates them again
  await page.keyboard.press('ControlOrMeta+d');
  await expect(page.getByTestId('node-jsonata-transform-2')).toBeVisible();
  await expect(note('note-4').getByText('Ask for consent first')).toBeVisible();
  // a note's text changed, for the diff
  await note('note-2').dblclick();
  await page.getByRole('textbox', { name: 'Note text (Markdown)' }).fill('Goes to the ward board and the GP');
  await page.keyboard.press('Escape');

  // auto-layout lays the nodes out left to right; the notes go along and cover no node
  await page.getByRole('button', { name: 'Auto-layout' }).click();
  await expect.poll(async () => (await canvasBoxes(page)).find((b) => b.id === 'out')!.x).toBeGreaterThan(300);
  const laidOut = await canvasBoxes(page);
  const notes = laidOut.filter((b) => b.id.startsWith('note:'));
  const nodes = laidOut.filter((b) => !b.id.startsWith('note:'));
  expect(notes).toHaveLength(4);
  for (const n of notes) for (const d of nodes) expect(overlap(n, d), `${n.id} covers ${d.id}`).toBe(false);
  // the note beside "out" is still beside it
  const by = (id: string) => laidOut.find((b) => b.id === id)!;
  expect([by('note:note-2').x - by('out').x, by('note:note-2').y - by('out').y]).toEqual([304, 0]);
  await shot(page, 'laid-out');

  await page.keyboard.press('ControlOrMeta+s');
  await expect(page.getByTitle('Saved version the canvas is based on')).toHaveText('v2');
  const saved = (await (await page.request.get(`/api/pipelines/${id}`)).json()) as { definition: { notes: { id: string; text: string }[] } };
  expect(saved.definition.notes.map((n) => n.id)).toEqual(['note-1', 'note-2', 'note-3', 'note-4']);

  // the version diff lists the notes added and the one rewritten
  await page.getByRole('tab', { name: 'Versions' }).click();
  await page.getByLabel('Compare from').selectOption('1');
  await page.getByLabel('Compare to').selectOption('2');
  await page.getByRole('button', { name: 'Diff' }).click();
  const diff = page.getByRole('dialog', { name: 'Changes from v1 to v2' }).getByTestId('version-diff-notes');
  await expect(diff.getByText('Added note “Intake”')).toHaveCount(2);
  await expect(diff.getByText('Changed note “Goes to the ward board and the GP”: text')).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Changes from v1 to v2' }).getByTestId('version-diff')).toContainText('Added jsonata-transform-1');
  await shot(page, 'diff');
  await page.getByRole('dialog', { name: 'Changes from v1 to v2' }).getByRole('button', { name: 'Close dialog' }).click();

  // a note's own menu duplicates it too
  await note('note-2').click({ button: 'right' });
  await page
    .getByRole('menu', { name: 'Note actions' })
    .getByRole('menuitem', { name: /^Duplicate/ })
    .click();
  await expect(note('note-5').getByText('Goes to the ward board and the GP')).toBeVisible();
});
