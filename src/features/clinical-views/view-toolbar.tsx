'use client';

import { Search } from 'lucide-react';
import { cn } from '@/components/ui/cn';

/** Filter box, "show empty" switch and a count, above a message view. */
export function ViewToolbar({
  filter,
  onFilter,
  placeholder,
  showEmpty,
  onShowEmpty,
  count,
}: {
  filter: string;
  onFilter: (v: string) => void;
  placeholder: string;
  showEmpty?: boolean;
  onShowEmpty?: (v: boolean) => void;
  count?: string;
}) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <label className="relative flex min-w-48 flex-1 items-center">
        <Search className="pointer-events-none absolute left-2 size-3.5 text-slate-400" aria-hidden />
        <span className="sr-only">Filter</span>
        <input
          type="search"
          value={filter}
          onChange={(e) => onFilter(e.target.value)}
          placeholder={placeholder}
          className={cn(
            'h-7 w-full rounded-md border border-slate-300 bg-white pr-2 pl-7 text-xs',
            'focus:border-teal-600 focus:ring-2 focus:ring-teal-600/20 focus:outline-none',
          )}
        />
      </label>
      {onShowEmpty ? (
        <label className="flex items-center gap-1.5 text-xs text-slate-600">
          <input type="checkbox" checked={!!showEmpty} onChange={(e) => onShowEmpty(e.target.checked)} className="size-3.5 accent-teal-700" />
          Show empty
        </label>
      ) : null}
      {count ? <span className="text-[11px] text-slate-400">{count}</span> : null}
    </div>
  );
}
