'use client';

import { useId, useRef, useState, type ClipboardEvent } from 'react';
import { parseHl7v2, isBatch, batchMessages } from '@/clinical/hl7v2/parse';
import { parseX12 } from '@/clinical/x12/parse';
import { textKind } from './detect';
import { forTextarea, lineEndOf, LINE_END_LABEL, pasteInto, withLineEnds, type LineEnd } from './line-ends';
import { cn } from '@/components/ui/cn';

/** What the pasted text reads as: `HL7 v2 ADT^A01 · 27 segments`, an X12 837P, or why it does not parse. */
function reading(text: string): { ok: boolean; text: string } | null {
  const kind = textKind(text);
  if (kind === 'hl7v2-text') {
    const r = parseHl7v2(text);
    if (!r.ok) return { ok: false, text: `Not HL7 v2: ${r.errors[0]?.message ?? 'unreadable'}` };
    if (isBatch(r.value)) return { ok: true, text: `HL7 v2 batch · ${batchMessages(r.value).length} messages` };
    const m = r.value;
    return { ok: true, text: `HL7 v2 ${m.message_type}^${m.trigger_event} · v${m.version} · ${m.segments.length} segments` };
  }
  if (kind === 'x12-text') {
    const r = parseX12(text);
    if (!r.ok) return { ok: false, text: `Not X12: ${r.errors[0]?.message ?? 'unreadable'}` };
    const sets = r.interchange.groups.flatMap((g) => g.transactions.map((t) => t.kind || t.set));
    return { ok: true, text: `X12 ${[...new Set(sets)].join(', ')} · ${sets.length} transaction${sets.length === 1 ? '' : 's'}` };
  }
  return null;
}

/**
 * A `text` input of a test run: a monospace textarea for a pasted HL7 v2 or X12 message that keeps its line
 * ends (CR, LF or CRLF: as pasted, or as picked) instead of the textarea's LF, and says what the text reads as.
 */
export function MessageTextarea({ name, value, onChange, disabled }: { name: string; value: string; onChange: (v: string) => void; disabled?: boolean }) {
  const id = useId();
  const ref = useRef<HTMLTextAreaElement>(null);
  // what a new line becomes while the text has none yet: as picked or pasted, else CR for HL7 v2 and LF for anything else
  const [preferred, setPreferred] = useState<LineEnd | null>(null);
  const end = lineEndOf(value) ?? preferred ?? (textKind(value) === 'hl7v2-text' ? '\r' : '\n');
  const lines = value === '' ? 0 : forTextarea(value).replace(/\n+$/, '').split('\n').length;
  const read = value.trim() ? reading(value) : null;

  function onPaste(e: ClipboardEvent<HTMLTextAreaElement>) {
    const clip = e.clipboardData.getData('text/plain');
    if (!clip) return;
    e.preventDefault();
    const el = e.currentTarget;
    const pastedEnd = lineEndOf(clip) ?? end;
    setPreferred(pastedEnd);
    const start = el.selectionStart;
    onChange(pasteInto(value, start, el.selectionEnd, clip, pastedEnd));
    const caret = start + forTextarea(clip).length;
    requestAnimationFrame(() => ref.current?.setSelectionRange(caret, caret));
  }

  return (
    <div className="space-y-1">
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-slate-700">
          {name} <span className="font-mono text-[11px] font-normal text-slate-400">text</span>
        </label>
        <label className="flex items-center gap-1.5 text-xs text-slate-500">
          Line ends
          <select
            value={end}
            disabled={disabled}
            onChange={(e) => {
              const next = e.target.value as LineEnd;
              setPreferred(next);
              onChange(withLineEnds(value, next));
            }}
            className="h-6 rounded border border-slate-300 bg-white px-1 text-xs"
          >
            {(Object.keys(LINE_END_LABEL) as LineEnd[]).map((k) => (
              <option key={k} value={k}>
                {LINE_END_LABEL[k]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <textarea
        id={id}
        ref={ref}
        value={forTextarea(value)}
        disabled={disabled}
        onChange={(e) => onChange(withLineEnds(e.target.value, end))}
        onPaste={onPaste}
        rows={10}
        wrap="off"
        spellCheck={false}
        autoComplete="off"
        placeholder={'Paste the text: an HL7 v2 message (MSH|^~\\&|…), an X12 interchange (ISA*00*…), CSV…'}
        className={cn(
          'block w-full resize-y rounded-md border border-slate-300 bg-white px-2.5 py-2 font-mono text-[11px] leading-relaxed',
          'text-slate-800 shadow-sm focus:border-teal-600 focus:ring-2 focus:ring-teal-600/20 focus:outline-none disabled:bg-slate-50',
        )}
      />
      <p className="flex flex-wrap gap-x-3 text-xs text-slate-500" data-testid={`reading-${name}`}>
        <span>
          {lines} line{lines === 1 ? '' : 's'} · {value.length} characters
        </span>
        {read ? <span className={read.ok ? 'text-teal-700' : 'text-red-700'}>{read.text}</span> : null}
      </p>
    </div>
  );
}
