'use client';

import { Dialog } from '@/components/ui/dialog';

export const MOD = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘' : 'Ctrl';

/** Every keyboard shortcut of the editor, as use-shortcuts.ts and React Flow handle them. */
export const SHORTCUTS: { group: string; items: [keys: string[], what: string][] }[] = [
  {
    group: 'Pipeline',
    items: [
      [[MOD, 'S'], 'Save'],
      [[MOD, 'Z'], 'Undo'],
      [[MOD, 'Shift', 'Z'], 'Redo (also Ctrl + Y)'],
    ],
  },
  {
    group: 'Nodes',
    items: [
      [[MOD, 'C'], 'Copy the selected nodes and notes'],
      [[MOD, 'V'], 'Paste them'],
      [[MOD, 'D'], 'Duplicate the selected nodes and notes'],
      [['D'], 'Disable or enable the selected nodes'],
      [['Shift', 'R'], 'Test run up to the selected node'],
      [['Delete'], 'Delete the selection (also Backspace)'],
      [['Shift', 'drag'], 'Select several nodes'],
      [[MOD, 'A'], 'Select all nodes and notes'],
      [['Enter'], 'In the palette: add the highlighted node'],
    ],
  },
  {
    group: 'Canvas menus and notes',
    items: [
      [['Right-click'], 'On a node: its actions, for the selection when several are selected'],
      [['Right-click', 'canvas'], 'Add a node or a sticky note there, paste, select all, auto-layout, fit view'],
      [['↑', '↓', 'Enter'], 'In a menu: move and pick (Esc closes it)'],
      [['Double-click'], 'On a sticky note: edit its text (Markdown; Esc ends)'],
    ],
  },
  {
    group: 'Finding your way',
    items: [
      [['/'], 'Search the palette'],
      [['?'], 'This list'],
      [['Esc'], 'Close a dialog'],
    ],
  },
];

function Keys({ keys }: { keys: string[] }) {
  return (
    <span className="flex shrink-0 gap-1">
      {keys.map((k) => (
        <kbd key={k} className="rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-[11px] text-slate-700 shadow-sm">
          {k}
        </kbd>
      ))}
    </span>
  );
}

/** The keyboard shortcut sheet (press ? on the canvas). */
export function ShortcutsSheet({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title="Keyboard shortcuts" className="max-w-lg">
      <div className="space-y-4">
        {SHORTCUTS.map((g) => (
          <section key={g.group}>
            <h3 className="mb-1.5 text-xs font-semibold tracking-wide text-slate-500 uppercase">{g.group}</h3>
            <ul className="divide-y divide-slate-100">
              {g.items.map(([keys, what]) => (
                <li key={what} className="flex items-center justify-between gap-4 py-1.5 text-sm text-slate-700">
                  {what}
                  <Keys keys={keys} />
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </Dialog>
  );
}
