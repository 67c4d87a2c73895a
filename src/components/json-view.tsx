import { cn } from '@/components/ui/cn';

/** JSON as people read it: two-space indented. */
export function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'null';
}

/** Read-only pretty JSON, scrollable. */
export function JsonView({ value, className, label }: { value: unknown; className?: string; label?: string }) {
  const empty = value === undefined || value === null || (typeof value === 'object' && Object.keys(value as object).length === 0);
  if (empty) return <p className="px-1 py-2 text-xs text-slate-400 italic">{value === null ? 'null' : 'Nothing'}</p>;
  return (
    <pre
      aria-label={label}
      className={cn(
        'max-h-72 overflow-auto rounded-md border border-slate-200 bg-slate-50 px-3 py-2 font-mono text-[11px] leading-relaxed text-slate-800',
        className,
      )}
    >
      {pretty(value)}
    </pre>
  );
}
