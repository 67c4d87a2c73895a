import { Workflow } from 'lucide-react';
import { cn } from './cn';

export function Logo({ className, inverted }: { className?: string; inverted?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-semibold tracking-tight', className)}>
      <span
        className={cn(
          'flex size-7 items-center justify-center rounded-lg',
          inverted ? 'bg-white/15 text-white' : 'bg-teal-700 text-white',
        )}
        aria-hidden
      >
        <Workflow className="size-4" />
      </span>
      <span className={inverted ? 'text-white' : 'text-slate-900'}>Clinflow</span>
    </span>
  );
}
