'use client';

import { useState } from 'react';
import type { X12Element, X12Interchange, X12Loop, X12Segment, X12Separators } from '@/clinical/x12/types';
import { X12_SEGMENT_NAMES } from './x12-names';
import { ViewToolbar } from './view-toolbar';

/** An element's text as on the wire: components joined by the component separator, repetitions by the repetition one. */
export function elementText(value: X12Element, seps: X12Separators): string {
  if (typeof value === 'string') return value;
  if (value.length > 0 && Array.isArray(value[0])) return (value as string[][]).map((r) => r.join(seps.component)).join(seps.repetition || '^');
  return (value as string[]).join(seps.component);
}

/** `[["NM103", "SMITH"], …]`: the elements in order, empty ones left out unless asked. */
export function elementsOf(segment: X12Segment, seps: X12Separators, showEmpty: boolean): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, value] of Object.entries(segment)) {
    if (key === 'id' || !key.startsWith(segment.id) || !/^\d{2,3}$/.test(key.slice(segment.id.length))) continue;
    const text = elementText(value, seps);
    if (showEmpty || text.trim() !== '') out.push([key, text]);
  }
  return out;
}

interface Ctx {
  seps: X12Separators;
  showEmpty: boolean;
  q: string;
}

function segmentMatches(s: X12Segment, c: Ctx): boolean {
  if (!c.q) return true;
  if (s.id.toLowerCase().includes(c.q) || (X12_SEGMENT_NAMES[s.id] ?? '').toLowerCase().includes(c.q)) return true;
  return elementsOf(s, c.seps, false).some(([, v]) => v.toLowerCase().includes(c.q));
}

function loopMatches(l: X12Loop, c: Ctx): boolean {
  if (!c.q) return true;
  return (
    l.loop.toLowerCase().includes(c.q) ||
    l.name.toLowerCase().includes(c.q) ||
    l.segments.some((s) => segmentMatches(s, c)) ||
    l.loops.some((x) => loopMatches(x, c))
  );
}

function SegmentRow({ segment, c }: { segment: X12Segment; c: Ctx }) {
  if (!segmentMatches(segment, c)) return null;
  const elements = elementsOf(segment, c.seps, c.showEmpty);
  return (
    <li className="flex gap-2 py-0.5" data-segment={segment.id}>
      <span className="w-10 shrink-0 font-mono font-bold text-slate-900">{segment.id}</span>
      <div className="min-w-0 flex-1">
        {X12_SEGMENT_NAMES[segment.id] ? <span className="block text-[10px] text-slate-500">{X12_SEGMENT_NAMES[segment.id]}</span> : null}
        <span className="flex flex-wrap gap-x-2.5 gap-y-0.5">
          {elements.map(([k, v]) => (
            <span key={k} className="whitespace-nowrap">
              <span className="font-mono text-[10px] text-slate-400">{k.slice(segment.id.length)} </span>
              <span className="font-mono text-slate-900">{v === '' ? '∅' : v}</span>
            </span>
          ))}
        </span>
      </div>
    </li>
  );
}

function Segments({ list, c }: { list: (X12Segment | undefined)[]; c: Ctx }) {
  const shown = list.filter((s): s is X12Segment => !!s);
  if (shown.length === 0) return null;
  return (
    <ul className="text-[11px]">
      {shown.map((s, i) => (
        <SegmentRow key={i} segment={s} c={c} />
      ))}
    </ul>
  );
}

function LoopBlock({ loop, c }: { loop: X12Loop; c: Ctx }) {
  if (!loopMatches(loop, c)) return null;
  return (
    <details open className="rounded border-l-2 border-teal-200 pl-2" data-loop={loop.loop}>
      <summary className="cursor-pointer py-0.5 text-xs select-none">
        <span className="font-mono font-semibold text-teal-800">{loop.loop}</span>
        <span className="ml-2 text-slate-700">{loop.name}</span>
      </summary>
      <div className="space-y-1 pb-1 pl-2">
        <Segments list={loop.segments} c={c} />
        {loop.loops.map((l, i) => (
          <LoopBlock key={i} loop={l} c={c} />
        ))}
      </div>
    </details>
  );
}

function Envelope({ title, children }: { title: React.ReactNode; children: React.ReactNode }) {
  return (
    <section className="rounded-md border border-slate-200 bg-white">
      <h4 className="flex flex-wrap items-baseline gap-x-2 border-b border-slate-100 bg-slate-50 px-2.5 py-1 text-xs">{title}</h4>
      <div className="space-y-1.5 px-2.5 py-1.5">{children}</div>
    </section>
  );
}

/** An `x12-interchange` as its envelopes (ISA, GS, ST), loops with the guides' ids and names, and segments. */
export function X12View({ interchange, label }: { interchange: X12Interchange; label: string }) {
  const [showEmpty, setShowEmpty] = useState(false);
  const [filter, setFilter] = useState('');
  const c: Ctx = { seps: interchange.separators, showEmpty, q: filter.trim().toLowerCase() };
  const isa = interchange.ISA;
  const sets = interchange.groups.reduce((n, g) => n + g.transactions.length, 0);
  return (
    <div role="region" aria-label={label} data-testid="x12-view" className="space-y-2">
      <ViewToolbar
        filter={filter}
        onFilter={setFilter}
        placeholder="Filter: 2300, CLM, NPI, name…"
        showEmpty={showEmpty}
        onShowEmpty={setShowEmpty}
        count={`${interchange.groups.length} group(s) · ${sets} transaction(s)`}
      />
      {interchange.warnings.length ? (
        <ul className="rounded-md border border-amber-200 bg-amber-50 px-3 py-1.5 text-xs text-amber-800">
          {interchange.warnings.map((w, i) => (
            <li key={i}>
              <span className="font-mono">{w.code}</span> {w.message}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="max-h-[36rem] overflow-auto pr-1">
        <Envelope
          title={
            <>
              <span className="font-mono font-bold text-slate-900">ISA</span>
              <span className="text-slate-600">Interchange</span>
              <span className="text-slate-500">
                {String(isa.ISA06 ?? '').trim()} → {String(isa.ISA08 ?? '').trim()} · control {String(isa.ISA13 ?? '')} ·{' '}
                {isa.ISA15 === 'P' ? 'production' : isa.ISA15 === 'T' ? 'test' : String(isa.ISA15 ?? '')}
              </span>
            </>
          }
        >
          <Segments list={[isa]} c={c} />
          {interchange.groups.map((g, gi) => (
            <Envelope
              key={gi}
              title={
                <>
                  <span className="font-mono font-bold text-slate-900">GS</span>
                  <span className="text-slate-600">Functional group {String(g.GS.GS01 ?? '')}</span>
                  <span className="text-slate-500">
                    {String(g.GS.GS02 ?? '')} → {String(g.GS.GS03 ?? '')} · {String(g.GS.GS08 ?? '')}
                  </span>
                </>
              }
            >
              <Segments list={[g.GS]} c={c} />
              {g.transactions.map((t, ti) => (
                <Envelope
                  key={ti}
                  title={
                    <>
                      <span className="font-mono font-bold text-slate-900">ST</span>
                      <span className="text-slate-600">Transaction set {t.kind || t.set}</span>
                      <span className="text-slate-500">
                        {t.guide} · control {String(t.ST.ST02 ?? '')}
                      </span>
                    </>
                  }
                >
                  <Segments list={[t.ST, ...t.segments]} c={c} />
                  {t.loops.map((l, li) => (
                    <LoopBlock key={li} loop={l} c={c} />
                  ))}
                  <Segments list={[t.SE]} c={c} />
                </Envelope>
              ))}
              <Segments list={[g.GE]} c={c} />
            </Envelope>
          ))}
          <Segments list={[interchange.IEA]} c={c} />
        </Envelope>
      </div>
    </div>
  );
}
