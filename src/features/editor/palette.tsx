'use client';

import { useReactFlow } from '@xyflow/react';
import { Crosshair, Search, X } from 'lucide-react';
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { cn } from '@/components/ui/cn';
import { GRID, NODE_DRAG_TYPE } from './constants';
import { lookOf } from './node-look';
import { paletteGroups } from './palette-groups';
import { useEditor } from './store-provider';
import type { CatalogEntry } from './types';

/** The node catalog by category; drag an entry onto the canvas, or focus it and press Enter. */
export function Palette() {
  const { catalog, addNode, nodes, dropAt, setDropAt } = useEditor((s) => ({
    catalog: s.catalog,
    addNode: s.addNode,
    nodes: s.nodes,
    dropAt: s.dropAt,
    setDropAt: s.setDropAt,
  }));
  const [query, setQuery] = useState('');
  const list = useRef<HTMLDivElement>(null);
  const lastAdd = useRef(0);
  const flow = useReactFlow();

  const groups = useMemo(() => paletteGroups(catalog, query), [catalog, query]);

  /** Adds the node where "Add a node here" was picked on the canvas, else in the middle of the view. */
  function addAtCenter(type: string) {
    // the click that added at the clicked point may be the first of a double-click, which adds too
    if (Date.now() - lastAdd.current < 500) return;
    lastAdd.current = Date.now();
    if (dropAt) {
      setDropAt(null);
      addNode(type, dropAt);
      return;
    }
    const box = document.querySelector('[data-testid="flow-canvas"]')?.getBoundingClientRect();
    const center = box ? flow.screenToFlowPosition({ x: box.left + box.width / 2, y: box.top + box.height / 2 }) : { x: 0, y: 0 };
    let x = Math.round((center.x - 120) / GRID) * GRID;
    let y = Math.round((center.y - 40) / GRID) * GRID;
    while (nodes.some((n) => Math.abs(n.position.x - x) < 24 && Math.abs(n.position.y - y) < 24)) {
      x += 2 * GRID;
      y += 2 * GRID;
    }
    addNode(type, { x, y });
  }

  function items(): HTMLElement[] {
    return Array.from(list.current?.querySelectorAll<HTMLElement>('[data-palette-item]') ?? []);
  }

  function onSearchKey(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      items()[0]?.focus();
    } else if (e.key === 'Enter') {
      const first = groups[0]?.entries[0];
      if (first) addAtCenter(first.id);
    } else if (e.key === 'Escape') {
      setQuery('');
      setDropAt(null);
    }
  }

  function onItemKey(e: KeyboardEvent<HTMLButtonElement>) {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const all = items();
    const i = all.indexOf(e.currentTarget);
    const next = e.key === 'ArrowDown' ? all[i + 1] : all[i - 1];
    if (next) next.focus();
    else if (e.key === 'ArrowUp') document.getElementById('palette-search')?.focus();
  }

  return (
    <div
      className="flex h-full flex-col bg-white"
      aria-label="Node palette"
      role="region"
      onBlur={(e) => {
        // "Add a node here" lasts while the palette has the focus
        if (dropAt && !e.currentTarget.contains(e.relatedTarget as Node | null)) setDropAt(null);
      }}
    >
      <div className="border-b border-slate-200 p-3">
        <label htmlFor="palette-search" className="sr-only">
          Search nodes
        </label>
        <div className="relative">
          <Search className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-slate-400" aria-hidden />
          <input
            id="palette-search"
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={onSearchKey}
            placeholder="Search nodes…  ( / )"
            autoComplete="off"
            className={[
              'block w-full rounded-md border border-slate-300 bg-white py-2 pr-8',
              'pl-8 text-sm placeholder:text-slate-400 focus:border-teal-600 focus:ring-2 focus:ring-teal-600/20 focus:outline-none',
              '[&::-webkit-search-cancel-button]:hidden',
            ].join(' ')}
          />
          {query ? (
            <button
              type="button"
              onClick={() => setQuery('')}
              aria-label="Clear search"
              className="absolute top-2 right-2 rounded p-0.5 text-slate-400 hover:text-slate-700"
            >
              <X className="size-4" aria-hidden />
            </button>
          ) : null}
        </div>
        {dropAt ? (
          <p className="mt-2 flex items-center gap-1.5 rounded-md bg-teal-50 px-2 py-1 text-xs text-teal-800" role="status">
            <Crosshair className="size-3.5 shrink-0" aria-hidden />
            Pick a node: it goes where you clicked on the canvas.
            <button type="button" onClick={() => setDropAt(null)} className="ml-auto font-medium underline">
              Cancel
            </button>
          </p>
        ) : null}
      </div>
      <div ref={list} className="min-h-0 flex-1 space-y-4 overflow-y-auto p-3">
        {groups.length === 0 ? (
          <p className="px-1 py-6 text-center text-sm text-slate-500">No node matches “{query}”.</p>
        ) : (
          groups.map((g) => {
            const look = lookOf(g.category);
            return (
              <section key={g.category} aria-label={look.label}>
                <h3 className="mb-1.5 px-1 text-[11px] font-semibold tracking-wider text-slate-500 uppercase">{look.label}</h3>
                <ul className="space-y-1">
                  {g.entries.map((entry) => (
                    <li key={entry.id}>
                      <PaletteItem entry={entry} armed={!!dropAt} onAdd={() => addAtCenter(entry.id)} onKeyDown={onItemKey} />
                    </li>
                  ))}
                </ul>
              </section>
            );
          })
        )}
      </div>
      <p className="border-t border-slate-100 px-3 py-2 text-[11px] text-slate-400">Drag onto the canvas, or press Enter.</p>
    </div>
  );
}

/** `armed`: "Add a node here" is on, so one click adds (elsewhere a click only focuses, a double-click adds). */
function PaletteItem({
  entry,
  armed,
  onAdd,
  onKeyDown,
}: {
  entry: CatalogEntry;
  armed: boolean;
  onAdd: () => void;
  onKeyDown: (e: KeyboardEvent<HTMLButtonElement>) => void;
}) {
  const look = lookOf(entry.category, entry.trigger);
  const Icon = look.icon;
  return (
    <button
      type="button"
      data-palette-item={entry.id}
      draggable
      onDragStart={(e) => {
        e.dataTransfer.setData(NODE_DRAG_TYPE, entry.id);
        e.dataTransfer.effectAllowed = 'copy';
      }}
      onKeyDown={onKeyDown}
      onClick={(e) => {
        if (e.detail === 0 || armed) onAdd(); // keyboard activation (Enter/Space); a mouse click only focuses
      }}
      onDoubleClick={onAdd}
      title={`${entry.description}\n\nDrag onto the canvas, or press Enter / double-click to add.`}
      className={cn(
        'flex w-full cursor-grab items-start gap-2.5 rounded-md border border-transparent px-2 py-1.5 text-left',
        'hover:border-slate-200 hover:bg-slate-50 focus-visible:border-teal-600',
        'focus-visible:ring-2 focus-visible:ring-teal-600/20 focus-visible:outline-none active:cursor-grabbing',
      )}
    >
      <span className={cn('mt-0.5 flex size-6 shrink-0 items-center justify-center rounded', look.tile)}>
        <Icon className="size-3.5" aria-hidden />
      </span>
      <span className="min-w-0">
        <span className="block truncate text-sm font-medium text-slate-800">{entry.name}</span>
        <span className="line-clamp-2 block text-xs text-slate-500">{entry.description.replace(/`/g, '')}</span>
      </span>
    </button>
  );
}
