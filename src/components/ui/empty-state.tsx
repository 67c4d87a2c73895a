import type { ReactNode } from 'react';

/** What to show instead of an empty table: what this place is for and the first step to take. */
export function EmptyState({ icon, title, children, action }: { icon: ReactNode; title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <div className="flex flex-col items-center px-6 py-14 text-center">
      <div className="mb-4 flex size-12 items-center justify-center rounded-full bg-teal-50 text-teal-700 ring-8 ring-teal-50/50">{icon}</div>
      <h2 className="text-base font-semibold text-slate-900">{title}</h2>
      <div className="mt-1.5 max-w-md text-sm text-slate-500">{children}</div>
      {action ? <div className="mt-5">{action}</div> : null}
    </div>
  );
}
