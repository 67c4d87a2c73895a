'use client';

import { useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import { cn } from '@/components/ui/cn';
import { formatDuration } from '@/components/format';
import { nodeLook } from './execution-look';
import { buildTimeline, formatTick, pct, type TimelineRow } from './timeline-scale';
import type { ExecutionNode } from './types';
import { SKIP_REASON_TEXT } from '@/shared/statuses';

const LABEL_COL = 'w-56 shrink-0';

/** Redraws every half second while something runs, so running bars grow. */
function useNow(live: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!live) return;
    const t = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(t);
  }, [live]);
  return live ? now : 0;
}

interface Props {
  nodes: ExecutionNode[];
  /** When the execution started: nodes that finished before it were carried over by a retry. */
  startedAt: string | null;
  /** Depth of each node in the pipeline graph: orders nodes that started in the same millisecond. */
  ranks?: Map<string, number>;
  live: boolean;
  selected: string | null;
  onSelect: (nodeId: string) => void;
}

/** Gantt chart of an execution: one row per node, bars on a shared time axis; concurrent nodes overlap. */
export function Timeline({ nodes, startedAt, ranks, live, selected, onSelect }: Props) {
  const now = useNow(live);
  const tl = useMemo(() => buildTimeline(nodes, now || Date.now(), startedAt, ranks), [nodes, now, startedAt, ranks]);
  const [hovered, setHovered] = useState<string | null>(null);

  function onKeyDown(e: KeyboardEvent) {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const i = tl.rows.findIndex((r) => r.node.node_id === selected);
    const next = tl.rows[Math.min(tl.rows.length - 1, Math.max(0, i + (e.key === 'ArrowDown' ? 1 : -1)))];
    if (next) {
      onSelect(next.node.node_id);
      document.querySelector<HTMLElement>(`[data-row-id="${CSS.escape(next.node.node_id)}"]`)?.focus();
    }
  }

  if (nodes.length === 0) {
    return <p className="px-4 py-8 text-center text-sm text-slate-500">{live ? 'Waiting for the first node to start…' : 'No node ran in this execution.'}</p>;
  }
  return (
    <div className="overflow-x-auto">
      <div className="min-w-[40rem] px-4 pt-2 pb-4" data-testid="timeline">
        <div className="flex items-end border-b border-slate-200 pb-1.5">
          <div className={cn(LABEL_COL, 'text-xs font-semibold tracking-wide text-slate-500 uppercase')}>Node</div>
          <div className="relative mr-16 h-4 flex-1" aria-hidden>
            {tl.ticks.map((t, i) => (
              <span
                key={t}
                className={cn(
                  'absolute top-0 text-[11px] whitespace-nowrap text-slate-400 tabular-nums',
                  i === 0 ? '' : i === tl.ticks.length - 1 ? '-translate-x-full' : '-translate-x-1/2',
                )}
                style={{ left: `${pct(t, tl.domain)}%` }}
              >
                {formatTick(t)}
              </span>
            ))}
          </div>
        </div>
        <div role="listbox" aria-label="Node timeline" onKeyDown={onKeyDown} className="relative">
          {tl.rows.map((row) => (
            <Row
              key={row.node.node_id}
              row={row}
              domain={tl.domain}
              ticks={tl.ticks}
              live={live}
              selected={selected === row.node.node_id}
              hovered={hovered === row.node.node_id}
              onSelect={() => onSelect(row.node.node_id)}
              onHover={(h) => setHovered(h ? row.node.node_id : null)}
            />
          ))}
        </div>
      </div>
    </div>
  );
}

interface RowProps {
  row: TimelineRow;
  live: boolean;
  domain: number;
  ticks: number[];
  selected: boolean;
  hovered: boolean;
  onSelect: () => void;
  onHover: (on: boolean) => void;
}

function notRunLabel(row: TimelineRow, live: boolean): string {
  if (row.carried) return 'reused from the original run';
  if (row.node.reason) return SKIP_REASON_TEXT[row.node.reason];
  if (row.node.error?.code === 'UPSTREAM_FAILED') return SKIP_REASON_TEXT.upstream_failed; // recorded before skip reasons existed
  if (row.node.status === 'pending') return live ? 'pending' : 'did not run';
  return `${nodeLook(row.node.status).label.toLowerCase()} · did not run`;
}

function Row({ row, domain, ticks, live, selected, hovered, onSelect, onHover }: RowProps) {
  const { node, start, end } = row;
  const look = nodeLook(node.status);
  const hasBar = start !== null && end !== null && !row.carried && node.status !== 'skipped' && node.status !== 'pending';
  const left = hasBar ? pct(start, domain) : 0;
  const width = hasBar ? Math.max(pct(end, domain) - left, 0) : 0;
  const duration = node.duration_ms ?? (hasBar ? Math.round(end - start) : null);
  // the duration sits after the bar, else before it, else (a bar across the whole axis) inside its end
  const place = left + width <= 82 ? 'after' : left >= 18 ? 'before' : 'inside';
  const tip = hasBar
    ? [
        `${node.node_id} · ${look.label} · starts at +${Math.round(start)} ms ·`,
        `${formatDuration(duration) || '0 ms'}${node.attempts > 1 ? ` · ${node.attempts} attempts` : ''}`,
      ].join(' ')
    : row.carried
      ? `${node.node_id} · ${look.label} in the original run; its outputs were reused`
      : `${node.node_id} · ${look.label}: did not run`;
  return (
    <div
      role="option"
      tabIndex={selected ? 0 : -1}
      aria-selected={selected}
      data-testid="timeline-row"
      data-row-id={node.node_id}
      title={tip}
      onClick={onSelect}
      onMouseEnter={() => onHover(true)}
      onMouseLeave={() => onHover(false)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onSelect();
        }
      }}
      className={cn(
        'flex cursor-pointer items-center border-b border-slate-100 py-1.5 outline-none last:border-b-0 focus-visible:ring-2 focus-visible:ring-teal-600/40',
        selected ? 'bg-teal-50/70' : hovered ? 'bg-slate-50' : '',
        !hasBar && 'opacity-60',
      )}
    >
      <div className={cn(LABEL_COL, 'flex min-w-0 items-center gap-2 pr-3')}>
        <span className={cn('size-2 shrink-0 rounded-full', look.dot)} aria-hidden />
        <div className="min-w-0">
          <p className={cn('truncate font-mono text-xs', selected ? 'font-semibold text-teal-900' : 'text-slate-800')}>{node.node_id}</p>
          <p className="truncate text-[11px] text-slate-400">{node.node_type}</p>
        </div>
      </div>
      <div className="relative mr-16 h-7 flex-1">
        {ticks.map((t) => (
          <span key={t} className="absolute inset-y-0 w-px bg-slate-100" style={{ left: `${pct(t, domain)}%` }} aria-hidden />
        ))}
        {hasBar ? (
          <>
            <div
              data-testid="timeline-bar"
              data-node-id={node.node_id}
              data-status={node.status}
              className={cn('absolute top-1.5 bottom-1.5 min-w-[3px] rounded-sm shadow-sm', look.bar, selected && 'ring-2 ring-teal-700/40 ring-offset-1')}
              style={{ left: `${left}%`, width: `${width}%` }}
            />
            <span
              className={cn(
                'absolute top-1/2 -translate-y-1/2 text-[11px] whitespace-nowrap tabular-nums',
                place === 'after' ? 'pl-1.5 text-slate-500' : place === 'before' ? 'pr-1.5 text-slate-500' : 'pr-1.5 font-medium text-white',
              )}
              style={place === 'after' ? { left: `${left + width}%` } : { right: `${100 - (place === 'before' ? left : left + width)}%` }}
            >
              {node.status === 'running' ? 'running…' : formatDuration(duration) || '0 ms'}
            </span>
          </>
        ) : (
          <span className="absolute top-1/2 left-0 -translate-y-1/2 text-[11px] text-slate-400 italic">{notRunLabel(row, live)}</span>
        )}
      </div>
    </div>
  );
}
