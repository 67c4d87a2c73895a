'use client';

import type { ReactNode } from 'react';
import { cn } from './cn';

export interface Tab<Id extends string> {
  id: Id;
  label: string;
  icon?: ReactNode;
  /** A number shown beside the label (log lines, issues). */
  count?: number;
  /** Extra marker after the label (a live session dot). */
  badge?: ReactNode;
  tone?: 'danger';
}

/** A tab bar (ARIA tablist); the caller renders the panel of the selected tab below it. */
export function Tabs<Id extends string>({
  label,
  tabs,
  value,
  onChange,
  size = 'sm',
  className,
}: {
  label: string;
  tabs: Tab<Id>[];
  value: Id;
  onChange: (id: Id) => void;
  size?: 'sm' | 'md';
  className?: string;
}) {
  return (
    <div role="tablist" aria-label={label} className={cn('flex shrink-0 gap-1 border-b', className)}>
      {tabs.map((t) => (
        <button
          key={t.id}
          role="tab"
          type="button"
          aria-selected={value === t.id}
          onClick={() => onChange(t.id)}
          className={cn(
            '-mb-px inline-flex shrink-0 items-center gap-1.5 border-b-2 px-2.5 text-xs font-medium whitespace-nowrap',
            size === 'md' ? 'py-2.5' : 'py-1.5',
            value === t.id ? 'border-teal-600 text-teal-800' : 'border-transparent text-slate-500 hover:text-slate-800',
            t.tone === 'danger' && 'text-red-600',
          )}
        >
          {t.icon}
          {t.label}
          {t.count ? <span className="rounded-full bg-slate-100 px-1.5 text-[10px] text-slate-600">{t.count}</span> : null}
          {t.badge}
        </button>
      ))}
    </div>
  );
}
