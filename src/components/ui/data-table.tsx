import type { ReactNode } from 'react';
import { cn } from './cn';
import { TH } from './table-classes';

export interface Column {
  header: string;
  /** Read by screen readers only (an actions column). */
  srOnly?: boolean;
  align?: 'right';
}

/**
 * The app's data table: a labelled, horizontally scrollable table with the shared header look. Rows are
 * the caller's (`<tr>` with `TD` cells), so each table keeps its own row behaviour.
 */
export function DataTable<T>({ label, columns, rows, row }: { label: string; columns: Column[]; rows: T[]; row: (item: T) => ReactNode }) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full divide-y divide-slate-200" aria-label={label}>
        <thead className="bg-slate-50/80">
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={cn(TH, c.align === 'right' && 'text-right')}>
                {c.srOnly ? <span className="sr-only">{c.header}</span> : c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{rows.map(row)}</tbody>
      </table>
    </div>
  );
}
