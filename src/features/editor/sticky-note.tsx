'use client';

import { NodeResizer, NodeToolbar, Position, type NodeProps } from '@xyflow/react';
import { Pencil, Trash2 } from 'lucide-react';
import { memo, useEffect, useRef } from 'react';
import { cn } from '@/components/ui/cn';
import { NOTE_COLORS, type NoteColor } from '@/shared/pipeline';
import { Markdown } from './markdown';
import { useEditor, useEditorStoreApi } from './store-provider';
import type { NoteNode } from './types';

/** Paper and swatch of each note colour. */
export const NOTE_LOOK: Record<NoteColor, { paper: string; swatch: string; minimap: string }> = {
  yellow: { paper: 'bg-amber-100 border-amber-300', swatch: 'bg-amber-300', minimap: '#fcd34d' },
  blue: { paper: 'bg-sky-100 border-sky-300', swatch: 'bg-sky-300', minimap: '#7dd3fc' },
  green: { paper: 'bg-emerald-100 border-emerald-300', swatch: 'bg-emerald-300', minimap: '#6ee7b7' },
  pink: { paper: 'bg-pink-100 border-pink-300', swatch: 'bg-pink-300', minimap: '#f9a8d4' },
  grey: { paper: 'bg-slate-100 border-slate-300', swatch: 'bg-slate-300', minimap: '#cbd5e1' },
};

function NoteEditor({ id, text }: { id: string; text: string }) {
  const { updateNote, setEditingNote } = useEditor((s) => ({ updateNote: s.updateNote, setEditingNote: s.setEditingNote }));
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const t = ref.current;
    if (!t) return;
    t.focus();
    t.setSelectionRange(t.value.length, t.value.length);
  }, []);
  return (
    <textarea
      ref={ref}
      aria-label="Note text (Markdown)"
      value={text}
      maxLength={20_000}
      placeholder="Write a note… Markdown works: **bold**, - lists, [links](https://…)"
      onChange={(e) => updateNote(id, { text: e.target.value }, 'text')}
      onBlur={() => setEditingNote(null)}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          setEditingNote(null);
        }
      }}
      className={cn(
        'nodrag nowheel nopan h-full w-full resize-none bg-transparent p-3 font-mono text-[12px]',
        'leading-relaxed text-slate-800 placeholder:text-slate-500 focus:outline-none',
      )}
    />
  );
}

/**
 * A sticky note: Markdown for people, on the canvas under the pipeline. Double-click to edit; when selected it
 * can be resized and has a toolbar with its colours and delete. Not a pipeline node.
 */
function StickyNoteView({ id, data, selected }: NodeProps<NoteNode>) {
  const store = useEditorStoreApi();
  const { editing, updateNote, removeNote, setEditingNote } = useEditor((s) => ({
    editing: s.editingNote === id,
    updateNote: s.updateNote,
    removeNote: s.removeNote,
    setEditingNote: s.setEditingNote,
  }));
  const look = NOTE_LOOK[data.color] ?? NOTE_LOOK.yellow;
  return (
    <div
      data-testid={`note-${id.slice(id.indexOf(':') + 1)}`}
      data-color={data.color}
      role="note"
      aria-label="Sticky note"
      onDoubleClick={() => setEditingNote(id)}
      className={cn('h-full w-full overflow-hidden rounded-md border shadow-sm', look.paper, selected && 'shadow-md ring-2 ring-teal-600/40')}
    >
      <NodeResizer isVisible={selected} minWidth={120} minHeight={80} color="#0d9488" onResizeStart={() => store.getState().checkpoint()} />
      <NodeToolbar
        isVisible={selected && !editing}
        position={Position.Top}
        className="flex items-center gap-1 rounded-md border border-slate-200 bg-white px-1.5 py-1 shadow-md"
      >
        {NOTE_COLORS.map((c) => (
          <button
            key={c}
            type="button"
            aria-label={`Colour: ${c}`}
            aria-pressed={data.color === c}
            title={c}
            onClick={() => updateNote(id, { color: c })}
            className={cn('size-4 rounded-full border border-black/10', NOTE_LOOK[c].swatch, data.color === c && 'ring-2 ring-teal-600 ring-offset-1')}
          />
        ))}
        <span className="mx-0.5 h-4 w-px bg-slate-200" aria-hidden />
        <button
          type="button"
          aria-label="Edit note"
          title="Edit (double-click)"
          onClick={() => setEditingNote(id)}
          className="rounded p-0.5 text-slate-500 hover:bg-slate-100 hover:text-slate-900"
        >
          <Pencil className="size-3.5" aria-hidden />
        </button>
        <button
          type="button"
          aria-label="Delete note"
          title="Delete (Delete)"
          onClick={() => removeNote(id)}
          className="rounded p-0.5 text-slate-500 hover:bg-red-50 hover:text-red-700"
        >
          <Trash2 className="size-3.5" aria-hidden />
        </button>
      </NodeToolbar>
      {editing ? (
        <NoteEditor id={id} text={data.text} />
      ) : data.text.trim() ? (
        <div className="h-full overflow-hidden p-3 [&_div]:text-slate-800">
          <Markdown source={data.text} />
        </div>
      ) : (
        <p className="p-3 text-[13px] text-slate-500 italic">Double-click to write a note (Markdown)</p>
      )}
    </div>
  );
}

export const StickyNote = memo(StickyNoteView);
