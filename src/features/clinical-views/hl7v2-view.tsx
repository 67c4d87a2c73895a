'use client';

import { useMemo, useState } from 'react';
import { cn } from '@/components/ui/cn';
import type { Hl7v2Message } from '@/clinical/hl7v2/types';
import { hl7Segments, tableLookups, type Hl7Field, type Hl7Part, type Hl7Segment } from './hl7v2-model';
import { ViewToolbar } from './view-toolbar';
import { useTableMeanings, type TableMeanings } from './use-table-meanings';

/** HL7 DTM `198908181126+0215` → `1989-08-18 11:26 +0215` (as sent, no time-zone arithmetic). */
export function hl7Time(dtm: string): string {
  const m = /^(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:\.\d+)?([+-]\d{4})?$/.exec(dtm);
  if (!m) return dtm;
  const [, y, mo, d, h, mi, s, tz] = m;
  const date = [y, mo, d].filter(Boolean).join('-');
  const time = h ? ` ${h}:${mi ?? '00'}${s ? `:${s}` : ''}` : '';
  return `${date}${time}${tz ? ` ${tz}` : ''}`;
}

function Meaning({ table, code, meanings }: { table: string | undefined; code: string; meanings: TableMeanings }) {
  const text = code ? meanings.meaning(table, code) : undefined;
  if (!text) return null;
  const title = meanings.title(table);
  return (
    <span
      className="ml-1.5 inline-block rounded bg-teal-50 px-1 py-px text-[10px] leading-tight font-medium text-teal-800 ring-1 ring-teal-200"
      title={`HL7 table ${table}${title ? ` · ${title}` : ''}`}
    >
      {text}
    </span>
  );
}

const TIME_TYPES = new Set(['TS', 'DTM', 'DT', 'DIN', 'DLD']);

/** A date or time as people read it, beside the HL7 form. */
function When({ part }: { part: Hl7Part }) {
  if (!part.dataType || !TIME_TYPES.has(part.dataType) || !/^\d{8}/.test(part.value)) return null;
  return <span className="ml-1.5 text-[10px] text-slate-500">{hl7Time(part.value)}</span>;
}

function PartValue({ part, meanings, showEmpty }: { part: Hl7Part; meanings: TableMeanings; showEmpty: boolean }) {
  if (!part.parts) {
    return (
      <>
        <span className="font-mono [overflow-wrap:anywhere] text-slate-900">{part.value}</span>
        <Meaning table={part.table} code={part.value} meanings={meanings} />
        <When part={part} />
      </>
    );
  }
  const subs = part.parts.filter((s) => showEmpty || s.value !== '');
  return (
    <span className="inline-flex flex-wrap gap-x-2.5">
      {subs.map((s) => (
        <span key={s.n}>
          <span className="text-[10px] text-slate-400">{s.name ?? `.${s.n}`} </span>
          <span className="font-mono text-slate-900">{s.value}</span>
          <Meaning table={s.table} code={s.value} meanings={meanings} />
        </span>
      ))}
    </span>
  );
}

function Repetition({ comps, meanings, showEmpty }: { comps: Hl7Part[]; meanings: TableMeanings; showEmpty: boolean }) {
  if (comps.length === 1 && !comps[0]!.parts) return <PartValue part={comps[0]!} meanings={meanings} showEmpty={showEmpty} />;
  const shown = comps.filter((c) => showEmpty || c.value !== '');
  return (
    <dl className="grid grid-cols-[fit-content(9rem)_minmax(0,1fr)] gap-x-3 gap-y-0.5 @2xl:grid-cols-[fit-content(14rem)_minmax(0,1fr)]">
      {shown.map((c) => (
        <div key={c.n} className="contents">
          <dt className="text-slate-500">
            <span className="mr-1 font-mono text-[10px] text-slate-400">.{c.n}</span>
            {c.name ?? ''}
          </dt>
          <dd className="min-w-0">
            <PartValue part={c} meanings={meanings} showEmpty={showEmpty} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

function FieldRow({ field, meanings, showEmpty }: { field: Hl7Field; meanings: TableMeanings; showEmpty: boolean }) {
  const reps = field.repetitions.filter((r) => showEmpty || r.some((c) => c.value !== ''));
  return (
    <tr data-path={field.path} className="border-t border-slate-100 align-top">
      <th scope="row" className="py-1 pr-3 text-left font-normal">
        <span className="mr-1.5 font-mono text-[11px] font-semibold whitespace-nowrap text-slate-600">{field.path}</span>{' '}
        <span className="text-slate-700">{field.name ?? <span className="text-slate-400 italic">unnamed</span>}</span>{' '}
        {field.dataType ? <span className="ml-1 font-mono text-[10px] text-slate-400">{field.dataType}</span> : null}
      </th>
      <td className="min-w-0 py-1">
        {reps.length === 1 ? (
          <Repetition comps={reps[0]!} meanings={meanings} showEmpty={showEmpty} />
        ) : (
          <ol className="space-y-1">
            {reps.map((r, i) => (
              <li key={i} className="flex gap-2">
                <span className="shrink-0 self-start rounded bg-slate-100 px-1 font-mono text-[10px] text-slate-500" title="Repetition">
                  ~{i + 1}
                </span>
                <div className="min-w-0 flex-1">
                  <Repetition comps={r} meanings={meanings} showEmpty={showEmpty} />
                </div>
              </li>
            ))}
          </ol>
        )}
      </td>
    </tr>
  );
}

function matches(f: Hl7Field, q: string): boolean {
  if (!q) return true;
  if (f.path.toLowerCase().includes(q) || (f.name ?? '').toLowerCase().includes(q)) return true;
  return f.repetitions.some((r) => r.some((c) => c.value.toLowerCase().includes(q) || (c.name ?? '').toLowerCase().includes(q)));
}

function SegmentBlock({ segment, fields, meanings, showEmpty }: { segment: Hl7Segment; fields: Hl7Field[]; meanings: TableMeanings; showEmpty: boolean }) {
  const label = `${segment.id}${segment.of > 1 ? ` ${segment.occurrence} of ${segment.of}` : ''}`;
  return (
    <section aria-label={`${label} ${segment.name ?? ''}`.trim()} className="rounded-md border border-slate-200 bg-white">
      <h4 className="flex items-baseline gap-2 border-b border-slate-100 bg-slate-50 px-2.5 py-1 text-xs">
        <span className="font-mono font-bold text-slate-900">{segment.id}</span>
        <span className="text-slate-600">{segment.name ?? 'Unknown segment'}</span>
        {segment.of > 1 ? (
          <span className="text-[10px] text-slate-400">
            {segment.occurrence} of {segment.of}
          </span>
        ) : null}
      </h4>
      {fields.length === 0 ? (
        <p className="px-2.5 py-1 text-[11px] text-slate-400 italic">No fields with a value.</p>
      ) : (
        <table className="w-full table-fixed px-2.5 text-[11px]">
          <colgroup>
            <col className="w-[38%] max-w-64 @2xl:w-64" />
            <col />
          </colgroup>
          <tbody className="[&>tr>*:first-child]:pl-2.5">
            {fields.map((f) => (
              <FieldRow key={f.n} field={f} meanings={meanings} showEmpty={showEmpty} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** An `hl7v2-message` as segments and named fields, with the meanings of coded values. */
export function Hl7v2View({ message, label }: { message: Hl7v2Message; label: string }) {
  const segments = useMemo(() => hl7Segments(message), [message]);
  const lookups = useMemo(() => tableLookups(segments), [segments]);
  const meanings = useTableMeanings(lookups);
  const [showEmpty, setShowEmpty] = useState(false);
  const [filter, setFilter] = useState('');
  const q = filter.trim().toLowerCase();
  const shown = segments
    .map((s) => ({ s, fields: s.fields.filter((f) => (showEmpty || !f.empty) && matches(f, q)) }))
    .filter(({ s, fields }) => !q || fields.length > 0 || s.id.toLowerCase() === q);
  const event = [message.message_type, message.trigger_event].filter(Boolean).join('^');
  return (
    <div role="region" aria-label={label} data-testid="hl7v2-view" className="@container space-y-2">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-xs">
        <span className="font-mono font-semibold text-slate-900">{event || 'HL7 v2'}</span>
        {message.structure ? <span className="font-mono text-slate-500">{message.structure}</span> : null}
        <span className="text-slate-500">v{message.version}</span>
        <span className="text-slate-500">
          control id <span className="font-mono text-slate-700">{message.control_id}</span>
        </span>
        <span className="text-slate-500">
          {message.sending_application}
          {message.sending_facility ? `@${message.sending_facility}` : ''} → {message.receiving_application}
          {message.receiving_facility ? `@${message.receiving_facility}` : ''}
        </span>
        {message.sent_at ? <span className="text-slate-500">sent {hl7Time(message.sent_at)}</span> : null}
      </div>
      <ViewToolbar
        filter={filter}
        onFilter={setFilter}
        placeholder="Filter: PID-5, name, value…"
        showEmpty={showEmpty}
        onShowEmpty={setShowEmpty}
        count={`${segments.length} segments`}
      />
      <div className={cn('max-h-[36rem] space-y-1.5 overflow-auto pr-1')}>
        {shown.length === 0 ? <p className="text-xs text-slate-400 italic">No field matches “{filter}”.</p> : null}
        {shown.map(({ s, fields }, i) => (
          <SegmentBlock key={i} segment={s} fields={fields} meanings={meanings} showEmpty={showEmpty} />
        ))}
      </div>
    </div>
  );
}
