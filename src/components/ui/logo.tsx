import { Workflow } from 'lucide-react';
import { cn } from './cn';

/** The mark and the name; `compact` keeps the mark only (the name stays for screen readers). */
export function Logo({ className, inverted, compact }: { className?: string; inverted?: boolean; compact?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-semibold tracking-tight', className)}>
      <span className={cn('flex size-7 items-center justify-center rounded-lg', inverted ? 'bg-white/15 text-white' : 'bg-teal-700 text-white')} aria-hidden>
        <Workflow className="size-4" />
      </span>
      <span className={cn(inverted ? 'text-white' : 'text-slate-900', compact && 'sr-only')}>Clinflow</span>
    </span>
  );
}
